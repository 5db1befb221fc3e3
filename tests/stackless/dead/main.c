/* Runs dead.ll's @f, whose two calls in code LLVM proves unreachable lose their continuations at
 * -O2 (their keys become the deleted-block constant): the frame table must still be accepted, with
 * the one live site, and @f must compute 3x through it under the collector. */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>

#include "llcoro/stackless.h"

struct ret {
    void *sp;
    int64_t value;
};
struct ret f(void *sp, int64_t x);

struct ret twice(void *sp, int64_t x) { return (struct ret){llcoro_gc_collect(sp).sp, 2 * x}; }

int main(void) {
    printf("table: %s\n", llcoro_status_string(llcoro_sites_default_status()));
    struct llcoro_heap_config cfg = {64 * 1024, NULL, LLCORO_FRAME_CONV_DEFAULT, 1, 1};
    struct llcoro_heap *heap = llcoro_heap_create(&cfg);
    if (!heap) return 1;
    llcoro_set_current_heap(heap);
    static void *root[4];
    struct ret r = f(root, 14);
    printf("f(14) = %" PRId64 ", same sp %d\n", r.value, r.sp == (void *)root);
    llcoro_set_current_heap(NULL);
    llcoro_heap_destroy(heap);
    return 0;
}

/* EXPECT:
table: ok
f(14) = 42, same sp 1
*/
