// Inline assembly (with outputs, inputs, clobbers, goto labels), symbol
// attributes (weak, hidden, protected, alias, section, used, constructor,
// destructor, visibility), function attributes (noinline, always_inline,
// cold, hot, pure, const, noreturn, naked-free), and module-level asm.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

__asm__(".globl llcoro_corpus_marker\n"
        ".type llcoro_corpus_marker,@function\n"
        "llcoro_corpus_marker:\n"
        "  ret\n");

int weak_value __attribute__((weak)) = 11;
__attribute__((visibility("hidden"))) int hidden_value = 12;
__attribute__((visibility("protected"))) int protected_value = 13;
__attribute__((section(".data.llcoro"), used)) static int in_section = 14;
__attribute__((weak)) int weak_function(int x) { return x + 1; }
extern int weak_undefined(int) __attribute__((weak));

int real_impl(int x) { return x * 3; }
int aliased(int x) __attribute__((alias("real_impl")));

static int ctor_ran, dtor_order;

__attribute__((constructor)) static void early(void) { ctor_ran |= 1; }
__attribute__((constructor(200))) static void earlier(void) { ctor_ran |= 2; }
__attribute__((destructor)) static void late(void) { dtor_order++; }

__attribute__((noinline)) static int no_inline(int x) { return x ^ 0x55; }
__attribute__((always_inline)) static inline int force_inline(int x) { return x + 9; }
__attribute__((cold, noinline)) static void cold_path(const char *why) {
    fprintf(stderr, "cold: %s\n", why);
}
__attribute__((hot)) static int hot_path(int x) { return x * x; }
__attribute__((pure)) static int pure_len(const char *s) {
    int n = 0;
    while (s[n])
        n++;
    return n;
}
__attribute__((const)) static int const_sq(int x) { return x * x; }
__attribute__((noreturn)) static void die(int code) { exit(code); }

static uint64_t rdtsc_like(void) {
#if defined(__x86_64__)
    uint32_t lo, hi;
    __asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
    return ((uint64_t)hi << 32) | lo;
#else
    return 0;
#endif
}

static int asm_add(int a, int b) {
    int out;
#if defined(__x86_64__)
    __asm__("leal (%1,%2), %0" : "=r"(out) : "r"(a), "r"(b));
#else
    out = a + b;
#endif
    return out;
}

static int asm_inout(int v) {
#if defined(__x86_64__)
    __asm__("incl %0" : "+r"(v) : : "cc");
    __asm__ volatile("" ::: "memory");
#else
    v++;
#endif
    return v;
}

static int asm_goto(int x) {
#if defined(__x86_64__)
    __asm__ goto("testl %0, %0\n\tjz %l[is_zero]" : : "r"(x) : "cc" : is_zero);
    return 1;
is_zero:
    return 0;
#else
    return x != 0;
#endif
}

static int asm_goto_output(int x) {
#if defined(__x86_64__)
    int y;
    __asm__ goto("movl %1, %0\n\tcmpl $5, %1\n\tje %l[five]" : "=r"(y) : "r"(x) : "cc" : five);
    return y;
five:
    return -5;
#else
    return x == 5 ? -5 : x;
#endif
}

static unsigned bswap(unsigned x) { return __builtin_bswap32(x); }

int main(int argc, char **argv) {
    (void)argv;
    if (argc > 100) {
        cold_path("too many args");
        die(2);
    }
    int total = weak_value + hidden_value + protected_value + in_section;
    total += weak_function(1) + aliased(2) + no_inline(3) + force_inline(4);
    total += hot_path(5) + pure_len("abc") + const_sq(6);
    if (weak_undefined)
        total += weak_undefined(1);
    total += asm_add(7, 8) + asm_inout(9) + asm_goto(0) + asm_goto(3) + asm_goto_output(5);
    printf("total=%d ctor=%d tsc=%d bswap=%x\n", total, ctor_ran, rdtsc_like() != 1,
           bswap(0x11223344u));
    return 0;
}
