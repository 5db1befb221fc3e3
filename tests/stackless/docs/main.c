/* Runs gc_argument.ll (docs/stackless.md's example) under the collector in stress mode: every
 * allocation collects first, so the object @parent hands to @child, and both frames, move at
 * each of the four allocations. The result must be what plain C computes: 4n + 1. */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>

#include "llcoro/stackless.h"

struct ret {
    void *sp;
    int64_t value;
};
struct ret parent(void *sp, int64_t n);

int main(void) {
    struct llcoro_heap_config cfg = {64 * 1024, NULL, LLCORO_FRAME_CONV_DEFAULT, 1, 1};
    struct llcoro_heap *heap = llcoro_heap_create(&cfg);
    if (!heap || llcoro_sites_default_status() != LLCORO_OK) return 1;
    llcoro_set_current_heap(heap);
    static void *root[4]; /* the root frame: its return-address slot is null */
    for (int64_t n = 1; n <= 3; n++) {
        struct ret r = parent(root, n * 1000);
        printf("parent(%" PRId64 ") = %" PRId64 " (C: %" PRId64 "), same sp %d\n", n * 1000, r.value,
               4 * n * 1000 + 1, r.sp == (void *)root);
    }
    struct llcoro_gc_stats st;
    llcoro_heap_stats(heap, &st);
    printf("allocations %" PRIu64 ", collections %" PRIu64 "\n", st.allocations, st.collections);
    llcoro_set_current_heap(NULL);
    llcoro_heap_destroy(heap);
    return 0;
}

/* EXPECT:
parent(1000) = 4001 (C: 4001), same sp 1
parent(2000) = 8001 (C: 8001), same sp 1
parent(3000) = 12001 (C: 12001), same sp 1
allocations 12, collections 12
*/
