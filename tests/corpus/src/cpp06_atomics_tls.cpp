// std::atomic with every memory order, compare_exchange loops, atomic_ref,
// thread_local objects with non-trivial constructors/destructors, function-
// local statics (guard variables), global constructors, inline variables
// and templates (comdat/linkonce_odr), weak and hidden symbols.
#include <atomic>
#include <cstdio>
#include <string>

struct registry {
    std::string name;
    int hits = 0;
    explicit registry(const char *n) : name(n) { std::printf("registry %s\n", n); }
    ~registry() { std::printf("~registry %s (%d)\n", name.c_str(), hits); }
};

registry global_registry("global");  // dynamic initialization -> global ctor
static registry file_registry("file");
thread_local registry tls_registry("tls");
thread_local int tls_counter = 0;
inline int inline_variable = 41;      // linkonce_odr + comdat
inline std::atomic<int> inline_atomic{0};

__attribute__((weak)) int weak_hook(int x) { return x; }
__attribute__((visibility("hidden"))) int hidden_helper(int x) { return x * 2; }

template <typename T>
struct singleton {
    static T &get() {
        static T instance{};  // guarded static initialization
        return instance;
    }
};

struct spinlock {
    std::atomic_flag flag = ATOMIC_FLAG_INIT;
    void lock() {
        while (flag.test_and_set(std::memory_order_acquire)) {
        }
    }
    void unlock() { flag.clear(std::memory_order_release); }
};

static std::atomic<long> counter{0};
static std::atomic<unsigned char> small{0};
static std::atomic<double> real{0.0};
static std::atomic<void *> pointer{nullptr};
static std::atomic<bool> ready{false};

static long bump_all_orders() {
    counter.fetch_add(1, std::memory_order_relaxed);
    counter.fetch_sub(1, std::memory_order_release);
    counter.fetch_add(5, std::memory_order_acquire);
    counter.fetch_or(8, std::memory_order_acq_rel);
    counter.fetch_and(~1L, std::memory_order_seq_cst);
    counter.fetch_xor(3, std::memory_order_consume);
    small.fetch_add(250);
    small += 10;
    ++small;
    return counter.load(std::memory_order_acquire);
}

static long cas_max(std::atomic<long> &a, long v) {
    long cur = a.load(std::memory_order_relaxed);
    while (cur < v && !a.compare_exchange_weak(cur, v, std::memory_order_release,
                                               std::memory_order_relaxed)) {
    }
    long expected = v;
    a.compare_exchange_strong(expected, v + 1, std::memory_order_seq_cst);
    return a.load();
}

static double add_real(double d) {
    double old = real.load();
    while (!real.compare_exchange_weak(old, old + d)) {
    }
    return real.load();
}

static int via_atomic_ref(int &plain) {
    std::atomic_ref<int> ref(plain);
    ref.fetch_add(7, std::memory_order_relaxed);
    ref.store(ref.load() * 2, std::memory_order_release);
    return ref.exchange(0);
}

static int use_tls() {
    tls_counter += 1;
    tls_registry.hits += tls_counter;
    return tls_registry.hits;
}

int main() {
    spinlock lk;
    lk.lock();
    global_registry.hits++;
    file_registry.hits += 2;
    lk.unlock();
    std::atomic_thread_fence(std::memory_order_seq_cst);
    std::atomic_signal_fence(std::memory_order_acquire);
    int plain = 3;
    int r = via_atomic_ref(plain);
    pointer.store(&plain, std::memory_order_release);
    ready.store(true);
    singleton<registry *>::get() = &global_registry;
    singleton<int>::get() += 4;
    inline_atomic.fetch_add(inline_variable);
    std::printf("%ld %ld %g %d %d %d %d %d\n", bump_all_orders(), cas_max(counter, 100),
                add_real(1.25), r, use_tls() + use_tls(), singleton<int>::get(),
                weak_hook(hidden_helper(2)), inline_atomic.load() + small.load());
    std::printf("%d %d\n", ready.exchange(false), pointer.load() == &plain);
    return 0;
}
