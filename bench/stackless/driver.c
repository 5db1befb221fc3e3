/* bench/stackless: fib(32) and ackermann(2, n) with heap frames (heap.ll through llcoro) against the
 * same recursion on the native stack, in one process. Prints one line per function:
 *   <name> n=<n> result=<r> heap_ns=<t> native_ns=<t> ratio=<heap/native>
 *          every_call_ns=<t> ratio_every_call=<heap/native with every call made>
 * (medians of the runs given by argv[1], default 7). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

struct ret { void *sp; int64_t v; };
struct ret hfib(void *sp, int64_t n);
struct ret hack(void *sp, int64_t m, int64_t n);
struct ret hack_tail(void *sp, int64_t m, int64_t n);

extern char *frame_top; /* heap.ll's frame region */
static char *region;

/* The same recursion on the native stack, as clang -O2 makes it: the second call of nfib and the
 * outer call of nack are turned into loops (tail recursion elimination with an accumulator), so
 * these make about half (nfib) or far fewer (nack) calls than the recursion says. */
__attribute__((noinline)) static int64_t nfib(int64_t n) { return n < 2 ? n : nfib(n - 1) + nfib(n - 2); }
__attribute__((noinline)) static int64_t nack(int64_t m, int64_t n) {
    if (m == 0) return n + 1;
    if (n == 0) return nack(m - 1, 1);
    return nack(m - 1, nack(m, n - 1));
}
/* And with every call made, as heap.ll makes them (disable_tail_calls also turns off clang's tail
 * recursion elimination): the same number of calls as the heap-frame versions. */
__attribute__((noinline, disable_tail_calls)) static int64_t cfib(int64_t n) {
    return n < 2 ? n : cfib(n - 1) + cfib(n - 2);
}
__attribute__((noinline, disable_tail_calls)) static int64_t cack(int64_t m, int64_t n) {
    if (m == 0) return n + 1;
    if (n == 0) return cack(m - 1, 1);
    return cack(m - 1, cack(m, n - 1));
}
static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}

static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n) {
    qsort(v, (size_t)n, sizeof *v, cmp);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static volatile int64_t an_v = 2000;

/* 100 x ackermann(2, an_v) through `heap` and both native versions; prints one line, returns
 * whether all three agree. */
static int measure_ack(const char *name, struct ret (*heap)(void *, int64_t, int64_t), void *root, int runs) {
    double h[99], n[99], c[99];
    int64_t hr = 0, nr = 0, cr = 0;
    for (int k = 0; k < runs; k++) {
        double t0 = now();
        hr = 0;
        for (int j = 0; j < 100; j++) hr += heap(root, 2, an_v).v;
        double t1 = now();
        nr = 0;
        for (int j = 0; j < 100; j++) nr += nack(2, an_v);
        double t2 = now();
        cr = 0;
        for (int j = 0; j < 100; j++) cr += cack(2, an_v);
        double t3 = now();
        h[k] = t1 - t0;
        n[k] = t2 - t1;
        c[k] = t3 - t2;
    }
    double hm = median(h, runs), nm = median(n, runs), cm = median(c, runs);
    int ok = hr == nr && hr == cr;
    printf("%s m=2 n=%lld x100 result=%lld heap_ns=%.0f native_ns=%.0f ratio=%.2f every_call_ns=%.0f "
           "ratio_every_call=%.2f%s\n",
           name, (long long)an_v, (long long)hr, hm, nm, hm / nm, cm, hm / cm, ok ? "" : " MISMATCH");
    return ok;
}

int main(int argc, char **argv) {
    int runs = argc > 1 ? atoi(argv[1]) : 7;
    if (runs < 1 || runs > 99) runs = 7;
    region = frame_top = malloc(64u << 20);
    static char root[16];
    double heap[99], native[99], calls[99];
    int64_t hr = 0, nr = 0, cr = 0;
    static volatile int64_t fib_n_v = 32;
    int64_t fib_n = fib_n_v;
    for (int k = 0; k < runs; k++) {
        double t0 = now();
        hr = hfib(root, fib_n).v;
        double t1 = now();
        nr = nfib(fib_n);
        double t2 = now();
        cr = cfib(fib_n);
        double t3 = now();
        heap[k] = t1 - t0;
        native[k] = t2 - t1;
        calls[k] = t3 - t2;
    }
    double h = median(heap, runs), n = median(native, runs), c = median(calls, runs);
    int ok = hr == nr && hr == cr;
    printf("fib n=32 result=%lld heap_ns=%.0f native_ns=%.0f ratio=%.2f every_call_ns=%.0f ratio_every_call=%.2f%s\n",
           (long long)hr, h, n, h / n, c, h / c, hr == nr && hr == cr ? "" : " MISMATCH");
    /* Read through a volatile each time: nack and cack are pure, and -O2 would otherwise make one
     * call for the hundred. heap.ll's @hack_tail makes its outer calls tail calls, as clang -O2
     * does for nack. */
    ok = measure_ack("ackermann", hack, root, runs) && ok;
    ok = measure_ack("ackermann_tail", hack_tail, root, runs) && ok;
    free(region);
    return ok ? 0 : 1;
}
