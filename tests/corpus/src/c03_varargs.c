// Variadic functions: va_list, va_arg of many types, va_copy, forwarding
// to vprintf, and variadic calls with promoted arguments.
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <stdint.h>

struct pair {
    long a;
    double b;
};

static double sum_doubles(int n, ...) {
    va_list ap;
    va_start(ap, n);
    double s = 0;
    for (int i = 0; i < n; i++)
        s += va_arg(ap, double);
    va_end(ap);
    return s;
}

// Type string drives the argument types: i=int, l=long long, d=double,
// s=char*, p=struct pair, c=char (promoted to int), L=long double.
static void typed(const char *types, ...) {
    va_list ap, copy;
    va_start(ap, types);
    va_copy(copy, ap);
    for (const char *t = types; *t; t++) {
        switch (*t) {
        case 'i': printf("i:%d ", va_arg(ap, int)); break;
        case 'l': printf("l:%lld ", va_arg(ap, long long)); break;
        case 'd': printf("d:%g ", va_arg(ap, double)); break;
        case 's': printf("s:%s ", va_arg(ap, const char *)); break;
        case 'c': printf("c:%c ", (char)va_arg(ap, int)); break;
        case 'L': printf("L:%Lg ", va_arg(ap, long double)); break;
        case 'p': {
            struct pair p = va_arg(ap, struct pair);
            printf("p:{%ld,%g} ", p.a, p.b);
            break;
        }
        }
    }
    printf("\n");
    // Walk the copy again, only counting the ints.
    int ints = 0;
    for (const char *t = types; *t; t++) {
        switch (*t) {
        case 'i': case 'c': (void)va_arg(copy, int); ints++; break;
        case 'l': (void)va_arg(copy, long long); break;
        case 'd': (void)va_arg(copy, double); break;
        case 's': (void)va_arg(copy, const char *); break;
        case 'L': (void)va_arg(copy, long double); break;
        case 'p': (void)va_arg(copy, struct pair); break;
        }
    }
    va_end(copy);
    va_end(ap);
    printf("ints=%d\n", ints);
}

__attribute__((format(printf, 2, 3)))
static int logf_prefixed(const char *prefix, const char *fmt, ...) {
    char buf[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    printf("[%s] %s\n", prefix, buf);
    return n;
}

static int64_t max_of(int count, ...) {
    va_list ap;
    va_start(ap, count);
    int64_t best = INT64_MIN;
    while (count-- > 0) {
        int64_t v = va_arg(ap, int64_t);
        if (v > best)
            best = v;
    }
    va_end(ap);
    return best;
}

// Old-style K&R-ish unprototyped call through a cast function pointer.
static int three(int a, int b, int c) { return a * 100 + b * 10 + c; }

int main(void) {
    struct pair p = {42, 2.5};
    printf("%g\n", sum_doubles(4, 1.0, 2.5, 3.25, (double)4.0f));
    typed("ildscpL", 7, 123456789012LL, 3.5, "str", 'x', p, (long double)1.25);
    logf_prefixed("info", "%d-%s-%.2f", 3, "abc", 9.75);
    printf("%lld\n", (long long)max_of(5, (int64_t)3, (int64_t)-9, (int64_t)77,
                                       (int64_t)12, (int64_t)76));
    int (*fp)(int, int, int) = three;
    printf("%d\n", fp(1, 2, 3));
    return 0;
}
