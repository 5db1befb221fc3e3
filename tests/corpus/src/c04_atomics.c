// C11 atomics and GCC __atomic/__sync builtins: atomicrmw, cmpxchg (weak and
// strong, all orderings), fences, atomic load/store, _Thread_local.
#include <stdatomic.h>
#include <stdio.h>
#include <stdint.h>
#include <stdbool.h>

static atomic_int counter = 0;
static _Atomic(uint64_t) wide = 0;
static _Atomic(float) fval = 0.0f;
static _Thread_local int tls_value = 5;
static __thread long tls_gnu;
static int plain;
static int *_Atomic ptr_slot;

static int spin_lock_try(atomic_flag *f) {
    return !atomic_flag_test_and_set_explicit(f, memory_order_acquire);
}

static void spin_unlock(atomic_flag *f) {
    atomic_flag_clear_explicit(f, memory_order_release);
}

static int cas_increment(atomic_int *p) {
    int old = atomic_load_explicit(p, memory_order_relaxed);
    while (!atomic_compare_exchange_weak_explicit(p, &old, old + 1,
                                                  memory_order_acq_rel,
                                                  memory_order_relaxed))
        ;
    return old;
}

static bool cas_strong(uint64_t expected, uint64_t desired) {
    return atomic_compare_exchange_strong(&wide, &expected, desired);
}

static void rmw_all(void) {
    atomic_fetch_add(&counter, 3);
    atomic_fetch_sub_explicit(&counter, 1, memory_order_release);
    atomic_fetch_or_explicit(&counter, 0x100, memory_order_acquire);
    atomic_fetch_and_explicit(&counter, 0xfff, memory_order_relaxed);
    atomic_fetch_xor_explicit(&counter, 0x10, memory_order_consume);
    atomic_exchange(&wide, 99);
    __atomic_fetch_nand(&plain, 7, __ATOMIC_SEQ_CST);
    __atomic_fetch_max(&plain, 100, __ATOMIC_RELAXED);
    __atomic_fetch_min(&plain, -100, __ATOMIC_RELAXED);
    __sync_fetch_and_add(&plain, 1);
    __sync_lock_test_and_set(&plain, 4);
    __sync_lock_release(&plain);
    (void)__sync_bool_compare_and_swap(&plain, 0, 1);
    (void)__sync_val_compare_and_swap(&plain, 1, 2);
}

static void fences(void) {
    atomic_thread_fence(memory_order_acquire);
    atomic_thread_fence(memory_order_release);
    atomic_thread_fence(memory_order_acq_rel);
    atomic_thread_fence(memory_order_seq_cst);
    atomic_signal_fence(memory_order_seq_cst);
    __sync_synchronize();
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

static float add_float(float d) {
    float old = atomic_load(&fval);
    float desired;
    do {
        desired = old + d;
    } while (!atomic_compare_exchange_weak(&fval, &old, desired));
    return desired;
}

static int builtin_forms(void) {
    int v = 1, expected = 1, desired = 10;
    bool ok = __atomic_compare_exchange_n(&v, &expected, desired, false,
                                          __ATOMIC_SEQ_CST, __ATOMIC_ACQUIRE);
    int loaded = __atomic_load_n(&v, __ATOMIC_ACQUIRE);
    __atomic_store_n(&v, loaded + 1, __ATOMIC_RELEASE);
    int prev;
    __atomic_exchange(&v, &desired, &prev, __ATOMIC_ACQ_REL);
    unsigned char byte = 0;
    unsigned short half = 0;
    __atomic_store_n(&byte, 200, __ATOMIC_SEQ_CST);
    __atomic_fetch_add(&half, 300, __ATOMIC_RELAXED);
    return ok + prev + __atomic_load_n(&byte, __ATOMIC_SEQ_CST) +
           __atomic_add_fetch(&half, 1, __ATOMIC_ACQ_REL);
}

static int *publish(int *p) {
    int *old = atomic_exchange_explicit(&ptr_slot, p, memory_order_acq_rel);
    return old;
}

int main(void) {
    atomic_flag lock = ATOMIC_FLAG_INIT;
    if (spin_lock_try(&lock)) {
        cas_increment(&counter);
        spin_unlock(&lock);
    }
    rmw_all();
    fences();
    tls_value += 2;
    tls_gnu = tls_value * 3L;
    printf("counter=%d wide=%llu plain=%d cas=%d\n", atomic_load(&counter),
           (unsigned long long)atomic_load_explicit(&wide, memory_order_seq_cst),
           plain, cas_strong(99, 7));
    printf("f=%g b=%d tls=%d,%ld\n", add_float(1.5f), builtin_forms(), tls_value, tls_gnu);
    static int target = 3;
    publish(&target);
    int *p = publish(NULL);
    return p == &target ? 0 : 1;
}
