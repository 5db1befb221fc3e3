/* bench/stackless: fib(32) and ackermann(2, n) with heap frames (heap.ll through llcoro) against the
 * same recursion on the native stack, in one process. Prints one line per function:
 *   <name> n=<n> result=<r> heap_ns=<t> native_ns=<t> ratio=<heap/native>
 * (medians of the runs given by argv[1], default 7). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

struct ret { void *sp; int64_t v; };
struct ret hfib(void *sp, int64_t n);
struct ret hack(void *sp, int64_t m, int64_t n);

extern char *frame_top; /* heap.ll's frame region */
static char *region;

__attribute__((noinline)) static int64_t nfib(int64_t n) { return n < 2 ? n : nfib(n - 1) + nfib(n - 2); }

__attribute__((noinline)) static int64_t nack(int64_t m, int64_t n) {
    if (m == 0) return n + 1;
    if (n == 0) return nack(m - 1, 1);
    return nack(m - 1, nack(m, n - 1));
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

int main(int argc, char **argv) {
    int runs = argc > 1 ? atoi(argv[1]) : 7;
    if (runs < 1 || runs > 99) runs = 7;
    region = frame_top = malloc(64u << 20);
    static char root[16];
    double heap[99], native[99];
    int64_t hr = 0, nr = 0;
    for (int k = 0; k < runs; k++) {
        double t0 = now();
        hr = hfib(root, 32).v;
        double t1 = now();
        nr = nfib(32);
        double t2 = now();
        heap[k] = t1 - t0;
        native[k] = t2 - t1;
    }
    double h = median(heap, runs), n = median(native, runs);
    printf("fib n=32 result=%lld heap_ns=%.0f native_ns=%.0f ratio=%.2f%s\n", (long long)hr, h, n, h / n,
           hr == nr ? "" : " MISMATCH");
    int64_t an = 2000;
    for (int k = 0; k < runs; k++) {
        double t0 = now();
        hr = 0;
        for (int j = 0; j < 100; j++) hr += hack(root, 2, an).v;
        double t1 = now();
        nr = 0;
        for (int j = 0; j < 100; j++) nr += nack(2, an);
        double t2 = now();
        heap[k] = t1 - t0;
        native[k] = t2 - t1;
    }
    h = median(heap, runs);
    n = median(native, runs);
    printf("ackermann m=2 n=%lld x100 result=%lld heap_ns=%.0f native_ns=%.0f ratio=%.2f%s\n", (long long)an,
           (long long)hr, h, n, h / n, hr == nr ? "" : " MISMATCH");
    free(region);
    return hr == nr ? 0 : 1;
}
