/* Runs chain.ll's @chain, a recursion of stackless functions whose frames and objects live in the
 * runtime's collected heap, with the collector in stress mode: every allocation collects first,
 * so every frame and every object of the chain moves at every allocation.
 *
 * At the bottom, at_bottom() (called by the deepest level through a statepoint) walks the chain
 * through the runtime (llcoro_chain_depth, llcoro_walk with the frame descriptor table), checks
 * every frame and its object, collects once more and checks again. main() then checks the result
 * against a plain C computation of the same formula, and the collector's statistics against
 * closed forms: one collection per allocation (plus at_bottom's), the whole chain copied at the
 * bottom, and the bytes copied over the run being those of every live frame and object at every
 * allocation, i.e. everything moved every time. */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "llcoro/stackless.h"

struct ret {
    void *sp;
    int64_t value;
};
struct ret chain(void *sp, int64_t d, int64_t n);

static const struct llcoro_frame_conv conv = LLCORO_FRAME_CONV_DEFAULT;
static void *root[4]; /* the root frame: its return-address slot (8) and its object slot (16) are null */

static uint64_t value_of(uint64_t level) { return (level * UINT64_C(2654435761)) ^ UINT64_C(0x5bd1e995); }
static uint64_t bottom_seed(int64_t n) { return UINT64_C(0xB0770) + (uint64_t)n; }

/* The same formula as @chain, as a plain loop from the bottom up. */
static uint64_t expected_result(int64_t n) {
    uint64_t child = bottom_seed(n);
    for (int64_t d = n; d >= 0; d--) {
        uint64_t ud = (uint64_t)d;
        uint64_t k1 = ud * ud + 7;
        uint32_t k2 = ((uint32_t)ud * 40503u) ^ 0x2545u;
        child = ((child * 31 + k1) ^ k2) + value_of(ud) * 3 + (uint64_t)(n - d);
    }
    return child;
}

static void *get(const void *base, int off) {
    void *p;
    memcpy(&p, (const char *)base + off, sizeof p);
    return p;
}

/* What at_bottom saw, for main to print. */
static struct {
    long depth_before, depth_after;
    int walk_ok_before, walk_ok_after, moved;
    uint64_t frames_copied, objects_copied, chain_frames;
    uint64_t frame_cell_bytes; /* header + payload of one @chain frame */
} seen;

struct walk_ctx {
    struct llcoro_heap *heap;
    int64_t n;
    const struct llcoro_call_site *bottom_site, *rec_site;
    int ok;
};

/* Frame `depth` (0 innermost) is level n - depth: in the heap, suspended in @chain at the call to
 * at_bottom (depth 0) or to @chain (all others, one call site), its object at 16 that level's. */
static int check_frame(void *vctx, void *frame, const struct llcoro_call_site *site, size_t depth) {
    struct walk_ctx *c = vctx;
    uint64_t level = (uint64_t)c->n - depth;
    const void *obj = get(frame, 16);
    int ok = llcoro_heap_contains(c->heap, frame) && llcoro_cell_is_frame(frame) &&
             site->function == (const void *)chain && llcoro_heap_contains(c->heap, obj) &&
             !llcoro_cell_is_frame(obj) && llcoro_cell_nptrs(obj) == 1 &&
             ((const uint64_t *)obj)[1] == value_of(level) && ((const uint64_t *)obj)[2] == level;
    if (depth == 0)
        c->bottom_site = site;
    else if (depth == 1)
        c->rec_site = site;
    else
        ok = ok && site == c->rec_site;
    if (depth >= 1) ok = ok && site != c->bottom_site;
    /* The parent link of this level's object is the next frame's object (null for level 0). */
    void *caller = get(frame, 0);
    ok = ok && get(obj, 0) == get(caller, 16);
    if (!ok) c->ok = 0;
    return 0;
}

static int walk_chain(void *sp, int64_t n) {
    struct walk_ctx c = {llcoro_current_heap(), n, NULL, NULL, 1};
    void *reached = NULL;
    int st = llcoro_walk(llcoro_sites_default(), conv, sp, 0, check_frame, &c, &reached);
    return st == LLCORO_OK && c.ok && reached == (void *)root;
}

struct ret at_bottom(void *sp, int64_t n) {
    const struct llcoro_sites *sites = llcoro_sites_default();
    seen.depth_before = llcoro_chain_depth(sites, conv, sp);
    seen.walk_ok_before = walk_chain(sp, n);
    const void *key = get(sp, 8);
    const struct llcoro_call_site *site = llcoro_sites_lookup(sites, key);
    size_t frame_bytes = site ? (size_t)site->spill_offset + site->spill_size : 0;
    seen.frame_cell_bytes = 8 + (frame_bytes + 7) / 8 * 8;
    void *moved = llcoro_gc_collect(sp).sp;
    struct llcoro_gc_stats st;
    llcoro_heap_stats(llcoro_current_heap(), &st);
    seen.moved = moved != sp;
    seen.frames_copied = st.last_frames_copied;
    seen.objects_copied = st.last_objects_copied;
    seen.chain_frames = st.chain_frames;
    seen.depth_after = llcoro_chain_depth(sites, conv, moved);
    seen.walk_ok_after = walk_chain(moved, n);
    return (struct ret){moved, (int64_t)bottom_seed(n)};
}

void chain_broken(int64_t d, int64_t j) {
    printf("level %" PRId64 ": the object chain is broken at level %" PRId64 "\n", d, j);
    fflush(stdout);
    exit(1);
}

/* Bytes a collection copies when everything live is copied: every allocation at level d (the
 * frame, with levels 0..d-1 live; the object, with frames 0..d and objects 0..d-1) and the one
 * at the bottom (everything). An object is 8 + 24 bytes. */
static uint64_t expected_bytes(int64_t n, uint64_t frame_cell) {
    const uint64_t obj_cell = 8 + 24;
    uint64_t total = 0;
    for (uint64_t d = 0; d <= (uint64_t)n; d++) {
        total += d * (frame_cell + obj_cell);
        total += (d + 1) * frame_cell + d * obj_cell;
    }
    return total + ((uint64_t)n + 1) * (frame_cell + obj_cell);
}

static int run(int64_t n) {
    struct llcoro_heap_config cfg = {256 * 1024, NULL, conv, 1, 1};
    struct llcoro_heap *heap = llcoro_heap_create(&cfg);
    if (!heap) return 1;
    llcoro_set_current_heap(heap);
    memset(&seen, 0, sizeof seen);
    struct ret r = chain(root, 0, n);
    struct llcoro_gc_stats st;
    llcoro_heap_stats(heap, &st);
    uint64_t want = expected_result(n);
    printf("depth %" PRId64 ": result %" PRIu64 " expected %" PRIu64 " same_sp=%d\n", n + 1,
           (uint64_t)r.value, want, r.sp == (void *)root);
    printf("  at the bottom: chain depth %ld then %ld, walk %s then %s, frame moved %s\n",
           seen.depth_before, seen.depth_after, seen.walk_ok_before ? "ok" : "BAD",
           seen.walk_ok_after ? "ok" : "BAD", seen.moved ? "yes" : "no");
    printf("  bottom collection: %" PRIu64 " frames and %" PRIu64 " objects copied, chain %" PRIu64
           " frames\n",
           seen.frames_copied, seen.objects_copied, seen.chain_frames);
    printf("  allocations %" PRIu64 " (expected %" PRId64 "), collections %" PRIu64 " (expected %" PRId64
           ")\n",
           st.allocations, 2 * (n + 1), st.collections, 2 * (n + 1) + 1);
    printf("  every frame and object copied at every collection: %s\n",
           st.total_bytes_copied == expected_bytes(n, seen.frame_cell_bytes) ? "yes" : "no");
    llcoro_set_current_heap(NULL);
    llcoro_heap_destroy(heap);
    return 0;
}

int main(void) {
    if (llcoro_sites_default_status() != LLCORO_OK) {
        printf("bad frame table: %s\n", llcoro_status_string(llcoro_sites_default_status()));
        return 1;
    }
    int64_t depths[] = {0, 5, 299};
    for (size_t i = 0; i < sizeof depths / sizeof depths[0]; i++)
        if (run(depths[i]) != 0) return 1;
    return 0;
}

/* EXPECT:
depth 1: result 4643848337 expected 4643848337 same_sp=1
  at the bottom: chain depth 1 then 1, walk ok then ok, frame moved yes
  bottom collection: 1 frames and 1 objects copied, chain 1 frames
  allocations 2 (expected 2), collections 3 (expected 3)
  every frame and object copied at every collection: yes
depth 6: result 1243937112122496319 expected 1243937112122496319 same_sp=1
  at the bottom: chain depth 6 then 6, walk ok then ok, frame moved yes
  bottom collection: 6 frames and 6 objects copied, chain 6 frames
  allocations 12 (expected 12), collections 13 (expected 13)
  every frame and object copied at every collection: yes
depth 300: result 1470028682247313175 expected 1470028682247313175 same_sp=1
  at the bottom: chain depth 300 then 300, walk ok then ok, frame moved yes
  bottom collection: 300 frames and 300 objects copied, chain 300 frames
  allocations 600 (expected 600), collections 601 (expected 601)
  every frame and object copied at every collection: yes
*/
