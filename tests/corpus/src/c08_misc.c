// Miscellaneous C: builtins (overflow, bit ops, expect, unreachable,
// assume, prefetch, memcpy/memset intrinsics), alloca, recursion through
// function pointer tables, static const tables, strings with escapes,
// floating-point edge constants, restrict and volatile.
#include <alloca.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static const char escapes[] = "tab\there\nquote\"back\\slash\x01\x7f\xff\0embedded";
static const double special[] = {0.0, -0.0, 1e308, 4.9e-324, DBL_MAX, DBL_MIN,
                                 1.0 / 3.0, 0.1, 123456789.125};
static const float specialf[] = {FLT_MAX, FLT_MIN, 0.1f, -2.5f};
static volatile int sink;

static int checked_ops(int a, int b, int *out) {
    int r1, r2, r3;
    int o = __builtin_add_overflow(a, b, &r1);
    o |= __builtin_sub_overflow(a, b, &r2) << 1;
    o |= __builtin_mul_overflow(a, b, &r3) << 2;
    unsigned long long big;
    o |= __builtin_umulll_overflow((unsigned long long)a, (unsigned long long)b, &big) << 3;
    *out = r1 ^ r2 ^ r3;
    return o;
}

static int bit_ops(uint32_t x, uint64_t y) {
    int r = __builtin_popcount(x) + __builtin_popcountll(y);
    if (x)
        r += __builtin_clz(x) + __builtin_ctz(x);
    if (y)
        r += __builtin_clzll(y) + __builtin_ctzll(y);
    r += __builtin_parity(x) + __builtin_ffs((int)x);
    uint32_t rot = (x << 7) | (x >> 25);
    return r + (int)(rot & 0xff) + (int)__builtin_bitreverse8((uint8_t)x);
}

static int likely_path(int x) {
    if (__builtin_expect(x > 0, 1))
        return x * 2;
    if (__builtin_expect_with_probability(x == -7, 1, 0.01))
        return 7;
    return -x;
}

static int assume_and_unreachable(int x) {
    __builtin_assume(x >= 0);
    switch (x & 3) {
    case 0: return 10;
    case 1: return 11;
    case 2: return 12;
    case 3: return 13;
    }
    __builtin_unreachable();
}

static void copy_restrict(int *restrict dst, const int *restrict src, size_t n) {
    for (size_t i = 0; i < n; i++) {
        __builtin_prefetch(src + i + 8, 0, 1);
        dst[i] = src[i] * 2;
    }
}

static int use_alloca(int n) {
    int *buf = alloca((size_t)n * sizeof(int));
    for (int i = 0; i < n; i++)
        buf[i] = i * i;
    int s = 0;
    for (int i = 0; i < n; i++)
        s += buf[i];
    return s;
}

typedef int (*unary)(int);
static int even(int n);
static int odd(int n) { return n == 0 ? 0 : even(n - 1); }
static int even(int n) { return n == 0 ? 1 : odd(n - 1); }
static const unary parity_table[2] = {even, odd};

static double fp_ops(double x, float y) {
    double r = fabs(x) + sqrt(fabs(x)) + floor(x) + ceil(y) + fmin(x, y) + copysign(x, -1.0);
    r += __builtin_fma(x, y, 1.0) + __builtin_inf() * 0.0 + (isnan(r) ? 1 : 0);
    r += (double)(long long)x + (double)(unsigned)y + __builtin_nan("") * 0;
    return r + (double)INFINITY * (x > 1e300);
}

struct node {
    int value;
    struct node *next;
};

static int list_sum(const struct node *n) { return n ? n->value + list_sum(n->next) : 0; }

int main(void) {
    int out;
    int o = checked_ops(INT_MAX, 2, &out);
    int src[32], dst[32];
    for (int i = 0; i < 32; i++)
        src[i] = i;
    memset(dst, 0, sizeof dst);
    copy_restrict(dst, src, 32);
    struct node c = {3, NULL}, b = {2, &c}, a = {1, &b};
    sink = o;
    sink = sink + 1;
    printf("%d %d %d %d %d %d\n", o, out, bit_ops(0xF0F0u, 0x8000000000000001ull),
           likely_path(-7), assume_and_unreachable(6), dst[31]);
    printf("%d %d %d %zu %g %g\n", use_alloca(10), parity_table[1](9), list_sum(&a),
           strlen(escapes) + sizeof escapes, special[6] + special[3], (double)specialf[2]);
    printf("%g\n", fp_ops(2.5, 1.5f));
    return 0;
}
