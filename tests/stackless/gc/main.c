/* Runs list.ll's @build under the runtime's copying collector with a small heap, so that it
 * collects many times while the list grows, moving the frame and every node; the sum must still
 * be right. */
#include <stdint.h>
#include <stdio.h>

#include "llcoro/stackless.h"

struct ret { void *sp; int64_t value; };
struct ret build(void *sp, int64_t n);

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
    llcoro_heap_destroy(heap);
    return 0;
}

/* EXPECT:
sum=124750 same_sp=1 collected=yes
*/
