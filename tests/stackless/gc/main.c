/* Runs list.ll's @build, fib.ll's @gcfib and ack.ll's @gcack under the runtime's copying collector with a small
 * heap, so that it collects many times, moving the frames and every node; the results must still
 * be right (fib against a plain C loop). */
#include <stdint.h>
#include <stdio.h>

#include "llcoro/stackless.h"

struct ret { void *sp; int64_t value; };
struct ret build(void *sp, int64_t n);
struct ret gcfib(void *sp, int64_t n);
struct ret gcack(void *sp, int64_t m, int64_t n);

static int64_t fib_loop(int64_t n) {
    int64_t a = 0, b = 1;
    for (int64_t i = 0; i < n; i++) {
        int64_t c = a + b;
        a = b;
        b = c;
    }
    return a;
}

int main(void) {
    struct llcoro_heap_config cfg = {16 * 1024, NULL, LLCORO_FRAME_CONV_DEFAULT, 1};
    struct llcoro_heap *heap = llcoro_heap_create(&cfg);
    if (!heap) return 1;
    llcoro_set_current_heap(heap);
    static void *root[4]; /* a root frame: its return-address slot is null */
    struct ret r = build(root, 500);
    struct llcoro_gc_stats st;
    llcoro_heap_stats(heap, &st);
    printf("sum=%lld same_sp=%d collected=%s\n", (long long)r.value, r.sp == (void *)root,
           st.collections >= 3 ? "yes" : "no");
    uint64_t before = st.collections;
    struct ret f = gcfib(root, 22);
    llcoro_heap_stats(heap, &st);
    printf("fib(22) %s same_sp=%d collected=%s\n", f.value == fib_loop(22) ? "right" : "WRONG",
           f.sp == (void *)root, st.collections - before >= 20 ? "yes" : "no");
    before = st.collections;
    struct ret a = gcack(root, 2, 100);
    llcoro_heap_stats(heap, &st);
    /* ack(2, n) = 2n + 3 */
    printf("ack(2,100) %s same_sp=%d collected=%s\n", a.value == 2 * 100 + 3 ? "right" : "WRONG",
           a.sp == (void *)root, st.collections - before >= 10 ? "yes" : "no");
    /* Seven statepoints in the three files: seven distinct keys. */
    printf("table: %s, %zu call sites\n", llcoro_status_string(llcoro_sites_default_status()),
           llcoro_sites_count(llcoro_sites_default()));
    llcoro_heap_destroy(heap);
    return 0;
}

/* EXPECT:
sum=124750 same_sp=1 collected=yes
fib(22) right same_sp=1 collected=yes
ack(2,100) right same_sp=1 collected=yes
table: ok, 7 call sites
*/
