// SIMD vector types, shuffles, _Float16 / __fp16, long double, __int128,
// _Complex, and unusual integer widths via _BitInt.
#include <stdio.h>
#include <stdint.h>
#include <complex.h>

typedef float v4f __attribute__((vector_size(16)));
typedef int v4i __attribute__((vector_size(16)));
typedef double v2d __attribute__((vector_size(16)));
typedef short v8s __attribute__((vector_size(16)));
typedef unsigned char v16u8 __attribute__((vector_size(16)));
typedef float v8f __attribute__((vector_size(32)));
typedef float f4 __attribute__((ext_vector_type(4)));
typedef _Bool b8 __attribute__((ext_vector_type(8)));

static v4f saxpy(float a, v4f x, v4f y) { return a * x + y; }

static v4f reverse(v4f x) { return __builtin_shufflevector(x, x, 3, 2, 1, 0); }

static void concat(v4f a, v4f b, v8f *out) {
    *out = __builtin_shufflevector(a, b, 0, 1, 2, 3, 4, 5, 6, 7);
}

static v4i compare(v4f a, v4f b) { return a < b; }

static v16u8 bytes_interleave(v16u8 a, v16u8 b) {
    return __builtin_shufflevector(a, b, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5,
                                   21, 6, 22, 7, 23);
}

static int hsum(v4i v) { return v[0] + v[1] + v[2] + v[3]; }

static f4 swizzle(f4 v) { return v.wzyx + v.xxyy; }

static v8s convert(v4i a, v4i b) {
    v8s r;
    for (int i = 0; i < 4; i++) {
        r[i] = (short)a[i];
        r[i + 4] = (short)b[i];
    }
    return r;
}

static v2d cvt(v4f x) {
    return __builtin_convertvector(__builtin_shufflevector(x, x, 0, 1), v2d);
}

static _Float16 half_math(_Float16 a, _Float16 b) { return a * b + (_Float16)0.5; }

static float storage_half(__fp16 *p, int n) {
    float s = 0;
    for (int i = 0; i < n; i++)
        s += p[i];
    return s;
}

static long double ld_poly(long double x) {
    return ((3.0L * x + 2.0L) * x - 1.0L) * x + 0.125L;
}

static unsigned __int128 mul_wide(uint64_t a, uint64_t b) {
    return (unsigned __int128)a * b;
}

static __int128 div_wide(__int128 a, __int128 b) { return b ? a / b : 0; }

static double complex cmul(double complex a, double complex b) { return a * b; }

static float _Complex cf(float _Complex z) { return z * z + 1.0f; }

static _BitInt(37) odd_width(_BitInt(37) a, unsigned _BitInt(13) b) {
    return a * b + 5;
}

int main(void) {
    v4f x = {1, 2, 3, 4}, y = {0.5f, 0.5f, 0.5f, 0.5f};
    v4f r = reverse(saxpy(2.0f, x, y));
    v8f c;
    concat(x, r, &c);
    v4i m = compare(x, r);
    v16u8 a8 = {0}, b8v = {0};
    for (int i = 0; i < 16; i++) {
        a8[i] = (unsigned char)i;
        b8v[i] = (unsigned char)(100 + i);
    }
    v16u8 il = bytes_interleave(a8, b8v);
    f4 s = swizzle((f4){1, 2, 3, 4});
    v8s cs = convert(m, (v4i){9, 8, 7, 6});
    v2d d = cvt(x);
    b8 mask = {1, 0, 1, 0, 1, 1, 0, 0};
    printf("%g %g %d %u %g %d %g %d\n", r[0], c[7], hsum(m), il[3], s.x, cs[5], d[1],
           (int)mask[2]);
    _Float16 h = half_math((_Float16)1.5, (_Float16)2.0);
    __fp16 hs[3] = {1.0, 2.5, 3.25};
    printf("%g %g\n", (double)h, storage_half(hs, 3));
    printf("%Lg\n", ld_poly(1.5L));
    unsigned __int128 w = mul_wide(UINT64_MAX, 3);
    __int128 q = div_wide(-((__int128)1 << 90), 12345);
    printf("%llx %llx %lld\n", (unsigned long long)(w >> 64), (unsigned long long)w,
           (long long)(q >> 40));
    double complex z = cmul(1.0 + 2.0 * I, 3.0 - 1.0 * I);
    float _Complex zf = cf(0.5f + 0.5f * I);
    printf("%g%+gi %g%+gi\n", creal(z), cimag(z), crealf(zf), cimagf(zf));
    printf("%lld\n", (long long)odd_width(1000, 77));
    return 0;
}
