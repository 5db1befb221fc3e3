/* The copying collector on frames built by hand by the conventions of stackless.h: every frame
 * has its caller link at 0 and its return-address key at 8; the tables are built here.
 *
 * 1. graph: a chain of 4 frames (3 in the heap, 1 outside) holding lists, shared objects, a
 *    cycle, a captured continuation frame, an all-pointer object and an object holding a frame;
 *    many collections, each checked by a canonical fingerprint of everything reachable (contents,
 *    sharing, spill areas) before and after, with every heap cell moved and the stats exact.
 * 2. tree: a recursive function written the way llcoro lowers one (each call stores its key,
 *    passes sp, takes the relocated sp back), allocating its frames and its objects from the
 *    heap, so collections happen inside calls at every depth.
 * 3. loop: allocation-triggered collections in a loop of 20000 allocations.
 * 4. explicit roots.
 * 5. stress mode (collect_every_alloc): the tree and a frame with a list, one collection per
 *    allocation, everything moving at each. */
#include "check.h"
#include "llcoro/stackless.h"

#include <stdint.h>
#include <string.h>

/* ---- sites ---- */

enum { K_MID, K_INNER, K_CONT, K_T1, K_T2, K_T3, K_LEAF, K_LOOP, K_COUNT };
static const unsigned char keys[K_COUNT];
static const unsigned char fn_mid, fn_inner, fn_cont, fn_tree, fn_loop;
static const int32_t s_mid[] = {0, 16, 24};
static const int32_t s_inner[] = {32, 16, 24, 0};
static const int32_t s_cont[] = {16}; /* the link (0) is not listed: the collector follows it anyway */
static const int32_t s_t1[] = {0};
static const int32_t s_t2[] = {0, 16};
static const int32_t s_t3[] = {0, 16, 24};
static const int32_t s_loop[] = {0, 16};

#define SITE(k, f, spill_off, spill_sz, size, slots)                                               \
    {&keys[k], &f, NULL, 8, spill_off, spill_sz, size, sizeof slots / sizeof slots[0], 0, slots}
static const struct llcoro_call_site sites[] = {
    SITE(K_MID, fn_mid, 32, 16, 48, s_mid),     SITE(K_INNER, fn_inner, 40, 8, 48, s_inner),
    SITE(K_CONT, fn_cont, 24, 16, 40, s_cont),  SITE(K_T1, fn_tree, 32, 8, 40, s_t1),
    SITE(K_T2, fn_tree, 32, 8, 40, s_t2),       SITE(K_T3, fn_tree, 32, 8, -1, s_t3),
    SITE(K_LEAF, fn_tree, 32, 8, 40, s_t1),     SITE(K_LOOP, fn_loop, 24, 8, 32, s_loop),
};
static const struct llcoro_frame_table table = {LLCORO_FRAME_TABLE_MAGIC, 1, 56,
                                                sizeof sites / sizeof sites[0], 0, sites};
static struct llcoro_sites *map;
static const struct llcoro_frame_conv conv = LLCORO_FRAME_CONV_DEFAULT;

static void *get(const void *base, int off) {
    void *p;
    memcpy(&p, (const char *)base + off, sizeof p);
    return p;
}
static void put(void *base, int off, const void *v) { memcpy((char *)base + off, &v, sizeof v); }
static uint64_t get64(const void *base, int off) {
    uint64_t v;
    memcpy(&v, (const char *)base + off, sizeof v);
    return v;
}
static void put64(void *base, int off, uint64_t v) { memcpy((char *)base + off, &v, sizeof v); }
static void suspend(void *frame, int key) { put(frame, 8, &keys[key]); }

/* ---- fingerprint: a canonical description of everything reachable ---- */

enum { MAX_NODES = 8192 };
struct fp {
    struct llcoro_heap *heap;
    void *const *outside; /* frames outside the heap */
    size_t n_outside;
    uint64_t hash;
    void *nodes[MAX_NODES]; /* in canonical (first visit) order */
    size_t n;
    uint64_t heap_bytes, heap_objects, heap_frames;
};

static void mix(struct fp *f, uint64_t v) {
    for (int i = 0; i < 8; i++) {
        f->hash ^= (v >> (8 * i)) & 0xff;
        f->hash *= UINT64_C(0x100000001b3);
    }
}
static void mix_bytes(struct fp *f, const void *p, size_t n) {
    for (size_t i = 0; i < n; i++) mix(f, ((const unsigned char *)p)[i]);
}

static int is_outside_frame(const struct fp *f, const void *p) {
    for (size_t i = 0; i < f->n_outside; i++)
        if (f->outside[i] == p) return 1;
    return 0;
}

static void fp_value(struct fp *f, void *p);

static void fp_frame(struct fp *f, void *frame, size_t bytes) {
    const void *key = get(frame, 8);
    mix(f, 0xf4a3e);
    if (key == NULL) {
        mix_bytes(f, frame, bytes);
        return;
    }
    const struct llcoro_call_site *site = llcoro_sites_lookup(map, key);
    CHECK(site != NULL);
    mix(f, (uintptr_t)site);
    mix_bytes(f, (const char *)frame + site->spill_offset, site->spill_size);
    fp_value(f, get(frame, 0));
    for (uint32_t i = 0; i < site->gc_slot_count; i++) fp_value(f, get(frame, site->gc_slots[i]));
}

static void fp_value(struct fp *f, void *p) {
    if (p == NULL) {
        mix(f, 0);
        return;
    }
    for (size_t i = 0; i < f->n; i++)
        if (f->nodes[i] == p) {
            mix(f, 1);
            mix(f, i);
            return;
        }
    int in_heap = llcoro_heap_contains(f->heap, p);
    if (!in_heap && !is_outside_frame(f, p)) {
        mix(f, 3);
        mix(f, (uintptr_t)p); /* not collected: compared by address */
        return;
    }
    CHECK(f->n < MAX_NODES);
    f->nodes[f->n++] = p;
    mix(f, 2);
    if (!in_heap) {
        fp_frame(f, p, 0);
        return;
    }
    size_t size = llcoro_cell_size(p);
    f->heap_bytes += 8 + size;
    mix(f, size);
    if (llcoro_cell_is_frame(p)) {
        f->heap_frames++;
        CHECK(((uintptr_t)p & 15) == 0);
        fp_frame(f, p, size);
        return;
    }
    f->heap_objects++;
    uint32_t nptrs = llcoro_cell_nptrs(p);
    mix(f, nptrs);
    mix_bytes(f, (char *)p + 8 * nptrs, size - 8 * nptrs);
    for (uint32_t i = 0; i < nptrs; i++) fp_value(f, ((void **)p)[i]);
}

static void fingerprint(struct fp *f, struct llcoro_heap *h, void *const *outside, size_t n_outside,
                        void *sp, void *const *roots, size_t n_roots) {
    memset(f, 0, sizeof *f);
    f->heap = h;
    f->outside = outside;
    f->n_outside = n_outside;
    f->hash = UINT64_C(0xcbf29ce484222325);
    fp_value(f, sp);
    for (size_t i = 0; i < n_roots; i++) fp_value(f, roots[i]);
}

/* Collects at sp and checks that everything reachable is the same graph, every heap cell moved,
 * nothing outside the heap moved, and the stats are exactly the live heap cells. */
static struct fp before, after;
static void *checked_collect(struct llcoro_heap *h, void *const *outside, size_t n_outside, void *sp,
                             void **roots, size_t n_roots) {
    fingerprint(&before, h, outside, n_outside, sp, roots, n_roots);
    struct llcoro_gc_stats s0, s1;
    llcoro_heap_stats(h, &s0);
    void *new_sp = llcoro_heap_collect(h, sp);
    llcoro_heap_stats(h, &s1);
    fingerprint(&after, h, outside, n_outside, new_sp, roots, n_roots);
    CHECK(before.hash == after.hash);
    CHECK_EQ(before.n, after.n);
    for (size_t i = 0; i < before.n; i++) {
        /* before's heap cells were in the old semispace; the fingerprint visits in the same
           order, so after.nodes[i] is the new address of before.nodes[i]. */
        int outside_frame = is_outside_frame(&before, before.nodes[i]);
        if (outside_frame)
            CHECK(after.nodes[i] == before.nodes[i]);
        else {
            CHECK(after.nodes[i] != before.nodes[i]);
            CHECK(llcoro_heap_contains(h, after.nodes[i]));
        }
    }
    CHECK_EQ(s1.collections, s0.collections + 1);
    CHECK_EQ(s1.last_bytes_copied, before.heap_bytes);
    CHECK_EQ(s1.last_objects_copied, before.heap_objects);
    CHECK_EQ(s1.last_frames_copied, before.heap_frames);
    CHECK(llcoro_heap_used(h) >= before.heap_bytes);
    return new_sp;
}

/* ---- 1. graph ---- */

static const char static_data[] = "not in the heap";

static void *alloc_obj(struct llcoro_heap *h, void **sp, size_t size, uint32_t nptrs) {
    struct llcoro_sp_ptr r = llcoro_heap_alloc(h, *sp, size, nptrs);
    *sp = r.sp;
    CHECK(r.ptr != NULL);
    return r.ptr;
}

/* The frame `depth` links out from sp. */
static void *frame_at(void *sp, int depth) {
    while (depth-- > 0) sp = get(sp, 0);
    return sp;
}

static void test_graph(void) {
    struct llcoro_heap_config cfg = {1 << 20, map, conv, 1, 0};
    struct llcoro_heap *h = llcoro_heap_create(&cfg);
    CHECK(h != NULL);
    struct llcoro_region outside_region;
    CHECK_EQ(llcoro_region_init(&outside_region, 1024), LLCORO_OK);
    void *root = llcoro_region_alloc_frame(&outside_region, 32); /* key NULL: the root */

    /* root <- f1 (heap, MID) <- f2 (outside, MID) <- f3 (heap, MID) <- f4 (heap, INNER). While
       building, the innermost suspended frame passed to the allocator is the last one made. */
    void *sp = root;
    struct llcoro_sp_ptr r = llcoro_heap_alloc_frame(h, sp, 48);
    void *f1 = r.ptr;
    put(f1, 0, r.sp);
    suspend(f1, K_MID);
    void *f2 = llcoro_region_alloc_frame(&outside_region, 48);
    put(f2, 0, f1);
    suspend(f2, K_MID);
    r = llcoro_heap_alloc_frame(h, f2, 48);
    void *f3 = r.ptr;
    put(f3, 0, r.sp);
    suspend(f3, K_MID);
    r = llcoro_heap_alloc_frame(h, f3, 48);
    void *f4 = r.ptr;
    put(f4, 0, r.sp);
    suspend(f4, K_INNER);
    sp = f4;
    void *outside[] = {f2};
    CHECK_EQ(llcoro_chain_depth(map, conv, sp), 4);
    for (int i = 0; i < 4; i++) /* spill areas: patterns the collector must not touch */
        memset((char *)frame_at(sp, i) + (i == 0 ? 40 : 32), 0x30 + i, i == 0 ? 8 : 16);

    /* f1[16]: a list of 200 cons cells {car, cdr | id, 16 raw bytes}. No C local holds a heap
       pointer across an allocation: everything is reread from the frames. */
    for (uint64_t i = 0; i < 200; i++) {
        void *c = alloc_obj(h, &sp, 40, 2);
        f1 = frame_at(sp, 3);
        ((void **)c)[1] = get(f1, 16);
        put64(c, 16, i);
        memset((char *)c + 24, (int)i, 16);
        put(f1, 16, c);
    }
    /* f1[24] and f2[16]: one shared raw object. */
    void *shared = alloc_obj(h, &sp, 40, 0);
    memcpy(shared, "shared raw object, 40 bytes, no pointer", 40);
    put(frame_at(sp, 3), 24, shared);
    put(frame_at(sp, 2), 16, shared);
    /* f2[24]: a cycle a <-> b. */
    void *a = alloc_obj(h, &sp, 16, 1);
    put(frame_at(sp, 2), 24, a);
    void *b = alloc_obj(h, &sp, 16, 1);
    a = get(frame_at(sp, 2), 24);
    ((void **)a)[0] = b;
    ((void **)b)[0] = a;
    put64(a, 8, 0xaaaa);
    put64(b, 8, 0xbbbb);
    /* f3[24]: a captured continuation: a heap frame off the chain, suspended at K_CONT, linked
       to f1, holding a big raw object. */
    r = llcoro_heap_alloc_frame(h, sp, 40);
    sp = r.sp;
    void *cont = r.ptr;
    put(frame_at(sp, 1), 24, cont);
    put(cont, 0, frame_at(sp, 3));
    suspend(cont, K_CONT);
    memset((char *)cont + 24, 0x77, 16);
    void *big = alloc_obj(h, &sp, 1000, 0);
    for (int i = 0; i < 1000; i++) ((unsigned char *)big)[i] = (unsigned char)(i * 7);
    put(get(frame_at(sp, 1), 24), 16, big);
    /* f3[16]: an all-pointer object {shared, list, a, NULL}. */
    void *all = alloc_obj(h, &sp, 32, 4);
    ((void **)all)[0] = get(frame_at(sp, 3), 24);
    ((void **)all)[1] = get(frame_at(sp, 3), 16);
    ((void **)all)[2] = get(frame_at(sp, 2), 24);
    put(frame_at(sp, 1), 16, all);
    /* f4[16]: an object holding frames (the continuation and f2, outside) and static data;
       f4[24]: NULL; f4[32]: the list's 100th cell (interior of the list: sharing). */
    void *holder = alloc_obj(h, &sp, 32, 3);
    ((void **)holder)[0] = get(frame_at(sp, 1), 24);
    ((void **)holder)[1] = frame_at(sp, 2);
    ((void **)holder)[2] = (void *)(uintptr_t)static_data;
    put64(holder, 24, 0x686f6c646572);
    put(sp, 16, holder);
    put(sp, 24, NULL);
    void *cell = get(frame_at(sp, 3), 16);
    for (int i = 0; i < 100; i++) cell = ((void **)cell)[1];
    put(sp, 32, cell);
    /* An explicit root: a fresh object; and a root slot holding NULL. */
    static void *roots[2];
    roots[0] = alloc_obj(h, &sp, 24, 1);
    ((void **)roots[0])[0] = get(sp, 32);
    CHECK_EQ(llcoro_heap_add_root(h, &roots[0]), LLCORO_OK);
    CHECK_EQ(llcoro_heap_add_root(h, &roots[1]), LLCORO_OK);

    for (int round = 0; round < 300; round++) {
        /* Garbage: objects and frames nothing points to. */
        for (int i = 0; i < 50; i++) {
            alloc_obj(h, &sp, (size_t)(8 + (i * 37 + round) % 200), (uint32_t)(i % 2));
            if (i % 10 == 0) sp = llcoro_heap_alloc_frame(h, sp, 48).sp;
        }
        /* A change: push a cell on f1's list, drop the explicit root's target now and then. */
        void *c = alloc_obj(h, &sp, 40, 2);
        void *lf1 = frame_at(sp, 3);
        ((void **)c)[1] = get(lf1, 16);
        put64(c, 16, 1000 + (uint64_t)round);
        put(lf1, 16, c);
        if (round % 7 == 0) roots[1] = roots[1] == NULL ? get(sp, 16) : NULL;

        sp = checked_collect(h, outside, 1, sp, roots, 2);
        CHECK_EQ(llcoro_chain_depth(map, conv, sp), 4);
        CHECK(frame_at(sp, 2) == f2 && frame_at(sp, 4) == root);
    }
    /* Direct checks on the final graph. */
    void *l = get(frame_at(sp, 3), 16);
    for (int i = 299; i >= 0; i--, l = ((void **)l)[1]) CHECK_EQ(get64(l, 16), 1000 + (uint64_t)i);
    for (int i = 199; i >= 0; i--, l = ((void **)l)[1]) {
        CHECK_EQ(get64(l, 16), (uint64_t)i);
        CHECK(((unsigned char *)l)[24] == (unsigned char)i && ((unsigned char *)l)[39] == (unsigned char)i);
    }
    CHECK(l == NULL);
    CHECK(get(frame_at(sp, 3), 24) == get(f2, 16)); /* shared, still one object */
    CHECK(memcmp(get(f2, 16), "shared raw object", 17) == 0);
    a = get(f2, 24);
    b = ((void **)a)[0];
    CHECK(((void **)b)[0] == a && get64(a, 8) == 0xaaaa && get64(b, 8) == 0xbbbb);
    cont = get(frame_at(sp, 1), 24);
    CHECK(get(cont, 0) == frame_at(sp, 3)); /* the continuation's link followed f1's move */
    CHECK(((void **)get(sp, 16))[0] == cont && ((void **)get(sp, 16))[1] == f2);
    CHECK(((void **)get(sp, 16))[2] == static_data);
    big = get(cont, 16);
    for (int i = 0; i < 1000; i++) CHECK(((unsigned char *)big)[i] == (unsigned char)(i * 7));
    CHECK(((void **)roots[0])[0] == get(sp, 32));
    CHECK_EQ(get64(get(sp, 32), 16), 99); /* the 100th cell of the original list */
    for (int i = 0; i < 4; i++) {
        unsigned char *spill = (unsigned char *)frame_at(sp, i) + (i == 0 ? 40 : 32);
        for (int j = 0; j < (i == 0 ? 8 : 16); j++) CHECK(spill[j] == 0x30 + i);
    }

    struct llcoro_gc_stats st;
    llcoro_heap_stats(h, &st);
    printf("graph: %llu collections, %llu bytes copied per collection, pause mean %.1f us max %.1f us\n",
           (unsigned long long)st.collections, (unsigned long long)st.last_bytes_copied,
           (double)st.total_pause_ns / (double)st.collections / 1e3, (double)st.max_pause_ns / 1e3);
    llcoro_heap_remove_root(h, &roots[0]);
    llcoro_heap_remove_root(h, &roots[1]);
    llcoro_heap_destroy(h);
    llcoro_region_destroy(&outside_region);
}

/* ---- 2. tree: a recursive stackless function ---- */

/* tree(sp, d) -> {sp, node}: a leaf {id} (raw) when d == 0, else {left, right | leaves}. Frame:
 * 0 caller link, 8 key, 16 left, 24 right, 32 spill (d, which the "code generator" spilled). */
static uint64_t next_leaf;

static struct llcoro_sp_ptr tree(void *sp_arg, int d) {
    struct llcoro_sp_ptr r = llcoro_gc_alloc_frame(sp_arg, 40); /* the caller is suspended */
    void *f = r.ptr;
    put(f, 0, r.sp);
    put64(f, 32, (uint64_t)d);
    if (d == 0) {
        suspend(f, K_LEAF);
        r = llcoro_gc_alloc(f, 8, 0);
        f = r.sp;
        put64(r.ptr, 0, next_leaf++);
        struct llcoro_sp_ptr ret = {get(f, 0), r.ptr};
        return ret;
    }
    suspend(f, K_T1);
    r = tree(f, d - 1);
    f = r.sp;
    put(f, 16, r.ptr);
    suspend(f, K_T2);
    r = tree(f, d - 1);
    f = r.sp;
    put(f, 24, r.ptr);
    suspend(f, K_T3);
    r = llcoro_gc_alloc(f, 24, 2);
    f = r.sp;
    CHECK_EQ(get64(f, 32), d); /* the spill survived the moves */
    void *node = r.ptr;
    ((void **)node)[0] = get(f, 16);
    ((void **)node)[1] = get(f, 24);
    uint64_t leaves = (d == 1 ? 1 : get64(get(f, 16), 16)) + (d == 1 ? 1 : get64(get(f, 24), 16));
    put64(node, 16, leaves);
    struct llcoro_sp_ptr ret = {get(f, 0), node};
    return ret;
}

static void check_tree(const void *node, int d, uint64_t *leaf) {
    if (d == 0) {
        CHECK_EQ(llcoro_cell_nptrs(node), 0);
        CHECK_EQ(get64(node, 0), (*leaf)++);
        return;
    }
    CHECK_EQ(get64(node, 16), (uint64_t)1 << d);
    check_tree(((void *const *)node)[0], d - 1, leaf);
    check_tree(((void *const *)node)[1], d - 1, leaf);
}

static void test_tree(void) {
    struct llcoro_heap_config cfg = {48 * 1024, map, conv, 1, 0};
    struct llcoro_heap *h = llcoro_heap_create(&cfg);
    CHECK(h != NULL);
    llcoro_set_current_heap(h);
    void *root = calloc(1, 32);
    enum { DEPTH = 9 };
    for (int rep = 0; rep < 20; rep++) {
        next_leaf = 0;
        struct llcoro_sp_ptr r = tree(root, DEPTH);
        CHECK(r.sp == root);
        uint64_t leaf = 0;
        check_tree(r.ptr, DEPTH, &leaf);
        CHECK_EQ(leaf, 1u << DEPTH);
    }
    struct llcoro_gc_stats st;
    llcoro_heap_stats(h, &st);
    CHECK(st.collections >= 20);
    printf("tree: %llu collections, %.0f bytes copied per collection, pause mean %.1f us max %.1f us\n",
           (unsigned long long)st.collections, (double)st.total_bytes_copied / (double)st.collections,
           (double)st.total_pause_ns / (double)st.collections / 1e3, (double)st.max_pause_ns / 1e3);
    llcoro_set_current_heap(NULL);
    llcoro_heap_destroy(h);
    free(root);
}

/* ---- 3. loop ---- */

static void test_loop(void) {
    struct llcoro_heap_config cfg = {16 * 1024, map, conv, 1, 0};
    struct llcoro_heap *h = llcoro_heap_create(&cfg);
    CHECK(h != NULL);
    llcoro_set_current_heap(h);
    void *root = calloc(1, 32);
    struct llcoro_sp_ptr r = llcoro_gc_alloc_frame(root, 32);
    void *f = r.ptr;
    put(f, 0, r.sp);
    put64(f, 24, 0x5350494c4c);
    int moved = 0;
    enum { N = 20000, KEEP = 64 };
    for (uint64_t i = 0; i < N; i++) {
        suspend(f, K_LOOP);
        void *before_frame = f;
        r = llcoro_gc_alloc(f, 24, 1);
        f = r.sp;
        moved += f != before_frame;
        CHECK(get(f, 0) == root && get64(f, 24) == 0x5350494c4c);
        ((void **)r.ptr)[0] = get(f, 16);
        put64(r.ptr, 8, i);
        put64(r.ptr, 16, ~i);
        put(f, 16, r.ptr);
        if (i % KEEP == KEEP - 1) { /* keep the newest KEEP cells */
            void *c = get(f, 16);
            for (int k = 1; k < KEEP; k++) c = ((void **)c)[0];
            ((void **)c)[0] = NULL;
        }
    }
    uint64_t n = 0;
    for (void *c = get(f, 16); c != NULL; c = ((void **)c)[0], n++) {
        CHECK_EQ(get64(c, 8), N - 1 - n);
        CHECK_EQ(get64(c, 16), ~(N - 1 - n));
    }
    CHECK(n >= KEEP && n < 2 * KEEP);
    struct llcoro_gc_stats st;
    llcoro_heap_stats(h, &st);
    CHECK(st.collections > 50);
    CHECK_EQ((uint64_t)moved, st.collections); /* the frame moved at every collection */
    CHECK(llcoro_gc_collect(f).sp != f);
    printf("loop: %llu collections, %.0f bytes copied per collection, pause mean %.2f us max %.1f us\n",
           (unsigned long long)st.collections, (double)st.total_bytes_copied / (double)st.collections,
           (double)st.total_pause_ns / (double)st.collections / 1e3, (double)st.max_pause_ns / 1e3);
    llcoro_set_current_heap(NULL);
    llcoro_heap_destroy(h);
    free(root);
}

/* ---- 4. explicit roots only ---- */

static void test_roots(void) {
    struct llcoro_heap_config cfg = {4096, map, conv, 1, 0};
    struct llcoro_heap *h = llcoro_heap_create(&cfg);
    void *keep = llcoro_heap_alloc(h, NULL, 64, 0).ptr;
    memset(keep, 0x5a, 64);
    void *drop = llcoro_heap_alloc(h, NULL, 64, 0).ptr;
    CHECK_EQ(llcoro_heap_add_root(h, &keep), LLCORO_OK);
    CHECK_EQ(llcoro_heap_add_root(h, &drop), LLCORO_OK);
    llcoro_heap_remove_root(h, &drop);
    void *old = keep;
    CHECK(llcoro_heap_collect(h, NULL) == NULL);
    CHECK(keep != old && llcoro_heap_contains(h, keep) && !llcoro_heap_contains(h, old));
    for (int i = 0; i < 64; i++) CHECK(((unsigned char *)keep)[i] == 0x5a);
    struct llcoro_gc_stats st;
    llcoro_heap_stats(h, &st);
    CHECK_EQ(st.last_bytes_copied, 72);
    CHECK_EQ(llcoro_heap_used(h), 72);
    llcoro_heap_destroy(h);
}

/* ---- 5. stress mode: a collection at every allocation ---- */

static void test_stress(void) {
    struct llcoro_heap_config cfg = {64 * 1024, map, conv, 1, 1};
    struct llcoro_heap *h = llcoro_heap_create(&cfg);
    CHECK(h != NULL);
    llcoro_set_current_heap(h);
    void *root = calloc(1, 32);
    struct llcoro_gc_stats st;

    /* The recursive function of test 2: tree(d) allocates a frame, then either a leaf, or two
       subtrees and a node, so 2^(d+2) - 2 allocations, each one a collection. */
    enum { DEPTH = 6 };
    next_leaf = 0;
    struct llcoro_sp_ptr r = tree(root, DEPTH);
    CHECK(r.sp == root);
    uint64_t leaf = 0;
    check_tree(r.ptr, DEPTH, &leaf);
    CHECK_EQ(leaf, 1u << DEPTH);
    llcoro_heap_stats(h, &st);
    CHECK_EQ(st.allocations, (1u << (DEPTH + 2)) - 2);
    CHECK_EQ(st.collections, st.allocations);

    /* A frame holding a list: every allocation moves the frame and every cell of the list, even
       though the heap is nowhere near full. */
    r = llcoro_gc_alloc_frame(root, 32);
    void *f = r.ptr;
    put(f, 0, r.sp);
    put64(f, 24, 0x5354524553);
    enum { N = 200 };
    for (uint64_t i = 0; i < N; i++) {
        suspend(f, K_LOOP);
        void *before_frame = f, *before_head = get(f, 16);
        r = llcoro_gc_alloc(f, 24, 1);
        f = r.sp;
        CHECK(f != before_frame);
        CHECK(before_head == NULL || get(f, 16) != before_head);
        CHECK(get(f, 0) == root && get64(f, 24) == 0x5354524553);
        ((void **)r.ptr)[0] = get(f, 16);
        put64(r.ptr, 8, i);
        put(f, 16, r.ptr);
    }
    uint64_t n = 0;
    for (void *c = get(f, 16); c != NULL; c = ((void **)c)[0], n++) CHECK_EQ(get64(c, 8), N - 1 - n);
    CHECK_EQ(n, N);
    llcoro_heap_stats(h, &st);
    CHECK_EQ(st.allocations, (1u << (DEPTH + 2)) - 2 + 1 + N);
    CHECK_EQ(st.collections, st.allocations);
    CHECK_EQ(st.last_frames_copied, 1);
    CHECK_EQ(st.last_objects_copied, N - 1); /* the newest cell is allocated after the collection */
    /* An explicit collection is a collection without an allocation. */
    f = llcoro_gc_collect(f).sp;
    llcoro_heap_stats(h, &st);
    CHECK_EQ(st.collections, st.allocations + 1);
    llcoro_set_current_heap(NULL);
    llcoro_heap_destroy(h);

    /* Stress mode off: an allocation that fits does not collect. */
    cfg.collect_every_alloc = 0;
    h = llcoro_heap_create(&cfg);
    CHECK(h != NULL);
    for (int i = 0; i < 100; i++) CHECK(llcoro_heap_alloc(h, NULL, 16, 0).ptr != NULL);
    llcoro_heap_stats(h, &st);
    CHECK_EQ(st.allocations, 100);
    CHECK_EQ(st.collections, 0);
    llcoro_heap_destroy(h);
    free(root);
}

int main(void) {
    CHECK_EQ(llcoro_sites_build(&table, 1, &map), LLCORO_OK);
    test_roots();
    test_graph();
    test_tree();
    test_loop();
    test_stress();
    llcoro_sites_destroy(map);
    puts("test_gc: ok");
    return 0;
}
