/* Call-site lookup and the frame walker, on tables and frames built by hand. This program has no
 * "llcoro_frames" section: it also checks that it links and that the default map is empty. */
#include "check.h"
#include "llcoro/stackless.h"

#include <stdint.h>
#include <string.h>

/* Return-address keys and function identities: addresses of static objects stand in for the
 * blockaddresses and functions llcoro emits. */
static const unsigned char keys[16];
static const unsigned char fn_a, fn_b;

static const int32_t slots_a[] = {0, 16};
static const int32_t slots_b[] = {0, 16, 24};

static const struct llcoro_call_site sites_a[] = {
    {&keys[0], &fn_a, NULL, 8, 32, 16, 48, 2, 0, slots_a},
    {&keys[1], &fn_a, NULL, 8, 32, 16, 48, 2, 0, slots_a},
};
static const struct llcoro_call_site sites_b[] = {
    {&keys[2], &fn_b, NULL, 8, 32, 8, 40, 3, 0, slots_b},
};
static const struct llcoro_frame_table tables[2] = {
    {LLCORO_FRAME_TABLE_MAGIC, 1, sizeof(struct llcoro_call_site), 2, 0, sites_a},
    {LLCORO_FRAME_TABLE_MAGIC, 1, sizeof(struct llcoro_call_site), 1, 0, sites_b},
};

static void test_lookup(void) {
    struct llcoro_sites *m = NULL;
    CHECK_EQ(llcoro_sites_build(tables, 2, &m), LLCORO_OK);
    CHECK_EQ(llcoro_sites_count(m), 3);
    CHECK(llcoro_sites_lookup(m, &keys[0]) == &sites_a[0]);
    CHECK(llcoro_sites_lookup(m, &keys[1]) == &sites_a[1]);
    CHECK(llcoro_sites_lookup(m, &keys[2]) == &sites_b[0]);
    CHECK(llcoro_sites_lookup(m, &keys[3]) == NULL);
    CHECK(llcoro_sites_lookup(m, NULL) == NULL);
    llcoro_sites_destroy(m);

    /* The same table twice (same entries): accepted once. */
    const struct llcoro_frame_table *list[] = {&tables[1], &tables[0], &tables[1]};
    CHECK_EQ(llcoro_sites_build_from_list(list, 3, &m), LLCORO_OK);
    CHECK_EQ(llcoro_sites_count(m), 3);
    CHECK(llcoro_sites_lookup(m, &keys[2]) == &sites_b[0]);
    llcoro_sites_destroy(m);

    /* Empty. */
    CHECK_EQ(llcoro_sites_build(NULL, 0, &m), LLCORO_OK);
    CHECK_EQ(llcoro_sites_count(m), 0);
    CHECK(llcoro_sites_lookup(m, &keys[0]) == NULL);
    llcoro_sites_destroy(m);
}

static void test_errors(void) {
    struct llcoro_sites *m = (struct llcoro_sites *)1;
    struct llcoro_frame_table t = tables[0];
    t.magic = 0x12345678;
    CHECK_EQ(llcoro_sites_build(&t, 1, &m), LLCORO_E_MAGIC);
    CHECK(m == NULL);
    t = tables[0];
    t.version = 2;
    CHECK_EQ(llcoro_sites_build(&t, 1, &m), LLCORO_E_VERSION);
    t = tables[0];
    t.entry_size = 48;
    CHECK_EQ(llcoro_sites_build(&t, 1, &m), LLCORO_E_ENTRY_SIZE);
    t = tables[0];
    t.sites = NULL;
    CHECK_EQ(llcoro_sites_build(&t, 1, &m), LLCORO_E_TABLE);

    /* Two different entries with one key. */
    struct llcoro_call_site dup[2] = {sites_a[0], sites_a[0]};
    struct llcoro_frame_table td = {LLCORO_FRAME_TABLE_MAGIC, 1, 56, 2, 0, dup};
    CHECK_EQ(llcoro_sites_build(&td, 1, &m), LLCORO_E_DUPLICATE);
    /* A NULL key; gc slots without an array. */
    dup[1].return_address = NULL;
    CHECK_EQ(llcoro_sites_build(&td, 1, &m), LLCORO_E_TABLE);
    dup[1] = sites_b[0];
    dup[1].gc_slots = NULL;
    CHECK_EQ(llcoro_sites_build(&td, 1, &m), LLCORO_E_TABLE);
    CHECK(strcmp(llcoro_status_string(LLCORO_E_DUPLICATE), "unknown status") != 0);

    /* Sites whose continuation the optimizer deleted share the key LLVM gives a deleted block:
     * left out, and the rest of the table is kept. */
    struct llcoro_call_site gone[3] = {sites_a[0], sites_a[1], sites_b[0]};
    gone[0].return_address = LLCORO_DELETED_RETURN_ADDRESS;
    gone[2].return_address = LLCORO_DELETED_RETURN_ADDRESS;
    struct llcoro_frame_table tg = {LLCORO_FRAME_TABLE_MAGIC, 1, 56, 3, 0, gone};
    CHECK_EQ(llcoro_sites_build(&tg, 1, &m), LLCORO_OK);
    CHECK_EQ(llcoro_sites_count(m), 1);
    CHECK(llcoro_sites_lookup(m, &keys[1]) == &gone[1]);
    CHECK(llcoro_sites_lookup(m, LLCORO_DELETED_RETURN_ADDRESS) == NULL);
    llcoro_sites_destroy(m);
}

/* A future, larger entry: the runtime strides by entry_size and reads the version-1 fields. */
struct wide_site {
    struct llcoro_call_site v1;
    uint64_t extra;
};

static void test_wide_entries(void) {
    struct wide_site w[3];
    memset(w, 0, sizeof w);
    for (int i = 0; i < 3; i++) {
        w[i].v1 = sites_a[0];
        w[i].v1.return_address = &keys[8 + i];
        w[i].extra = 0xdeadbeef;
    }
    struct llcoro_frame_table t = {LLCORO_FRAME_TABLE_MAGIC, 1, sizeof(struct wide_site), 3, 0,
                                   &w[0].v1};
    struct llcoro_sites *m = NULL;
    CHECK_EQ(llcoro_sites_build(&t, 1, &m), LLCORO_OK);
    for (int i = 0; i < 3; i++) CHECK(llcoro_sites_lookup(m, &keys[8 + i]) == &w[i].v1);
    llcoro_sites_destroy(m);
}

/* Many sites with consecutive keys (the worst case for a naive hash). */
static void test_many(void) {
    enum { N = 20000 };
    static unsigned char many_keys[N * 4];
    static struct llcoro_call_site many[N];
    for (int i = 0; i < N; i++) {
        many[i] = sites_a[0];
        many[i].return_address = &many_keys[i * 4];
    }
    struct llcoro_frame_table t = {LLCORO_FRAME_TABLE_MAGIC, 1, 56, N, 0, many};
    struct llcoro_sites *m = NULL;
    CHECK_EQ(llcoro_sites_build(&t, 1, &m), LLCORO_OK);
    CHECK_EQ(llcoro_sites_count(m), N);
    for (int i = 0; i < N; i++) {
        CHECK(llcoro_sites_lookup(m, &many_keys[i * 4]) == &many[i]);
        CHECK(llcoro_sites_lookup(m, &many_keys[i * 4 + 1]) == NULL);
    }
    llcoro_sites_destroy(m);
}

/* ---- walking ---- */

static void set_ptr(void *frame, int off, const void *v) { memcpy((char *)frame + off, &v, sizeof v); }

struct seen {
    void *frames[8];
    const struct llcoro_call_site *sites[8];
    size_t n;
    size_t stop_at;
};

static int record(void *ctx, void *frame, const struct llcoro_call_site *site, size_t depth) {
    struct seen *s = ctx;
    CHECK_EQ(depth, s->n);
    s->frames[s->n] = frame;
    s->sites[s->n] = site;
    s->n++;
    return s->n == s->stop_at ? 42 : 0;
}

static void test_walk(void) {
    struct llcoro_sites *m = NULL;
    CHECK_EQ(llcoro_sites_build(tables, 2, &m), LLCORO_OK);
    struct llcoro_frame_conv conv = LLCORO_FRAME_CONV_DEFAULT;
    CHECK_EQ(conv.ra_offset, 8);
    CHECK_EQ(conv.link_offset, 0);

    /* root <- f0 (a, key 0) <- f1 (b, key 2) <- f2 (a, key 1) <- f3 (b, key 2): f3 innermost. */
    struct llcoro_region r;
    CHECK_EQ(llcoro_region_init(&r, 4096), LLCORO_OK);
    void *root = llcoro_region_alloc_frame(&r, 64);
    void *f[4];
    const void *k[4] = {&keys[0], &keys[2], &keys[1], &keys[2]};
    const struct llcoro_call_site *want[4] = {&sites_a[0], &sites_b[0], &sites_a[1], &sites_b[0]};
    for (int i = 0; i < 4; i++) {
        f[i] = llcoro_region_alloc_frame(&r, 48);
        CHECK(((uintptr_t)f[i] & 15) == 0);
        set_ptr(f[i], 0, i == 0 ? root : f[i - 1]);
        set_ptr(f[i], 8, k[i]);
    }
    struct seen s = {{0}, {0}, 0, 0};
    void *found_root = NULL;
    CHECK_EQ(llcoro_walk(m, conv, f[3], 0, record, &s, &found_root), LLCORO_OK);
    CHECK_EQ(s.n, 4);
    for (int i = 0; i < 4; i++) {
        CHECK(s.frames[i] == f[3 - i]);
        CHECK(s.sites[i] == want[3 - i]);
    }
    CHECK(found_root == root);
    CHECK_EQ(llcoro_chain_depth(m, conv, f[3]), 4);
    CHECK_EQ(llcoro_chain_depth(m, conv, f[0]), 1);
    CHECK_EQ(llcoro_chain_depth(m, conv, root), 0);
    CHECK_EQ(llcoro_chain_depth(m, conv, NULL), 0);

    /* The visitor stops the walk; a limit; an unknown key; an ra_offset mismatch. */
    s.n = 0;
    s.stop_at = 2;
    CHECK_EQ(llcoro_walk(m, conv, f[3], 0, record, &s, NULL), 42);
    CHECK_EQ(s.n, 2);
    CHECK_EQ(llcoro_walk(m, conv, f[3], 3, NULL, NULL, NULL), LLCORO_E_DEPTH);
    CHECK_EQ(llcoro_walk(m, conv, f[3], 4, NULL, NULL, NULL), LLCORO_OK);
    set_ptr(f[1], 8, &keys[5]);
    CHECK_EQ(llcoro_walk(m, conv, f[3], 0, NULL, NULL, NULL), LLCORO_E_UNKNOWN_RA);
    CHECK_EQ(llcoro_chain_depth(m, conv, f[3]), -LLCORO_E_UNKNOWN_RA);
    set_ptr(f[1], 8, &keys[2]);
    struct llcoro_frame_conv other = {16, 0};
    set_ptr(f[3], 16, &keys[0]);
    CHECK_EQ(llcoro_walk(m, other, f[3], 0, NULL, NULL, NULL), LLCORO_E_RA_OFFSET);

    /* Another link offset: the chain through offset 24 instead of 0. */
    struct llcoro_frame_conv via24 = {8, 24};
    for (int i = 0; i < 4; i++) set_ptr(f[i], 24, i == 0 ? root : f[i - 1]);
    set_ptr(f[2], 0, NULL); /* the slot at 0 is not the link any more */
    CHECK_EQ(llcoro_chain_depth(m, via24, f[3]), 4);
    CHECK_EQ(llcoro_chain_depth(m, conv, f[3]), 2); /* through 0: f3 -> f2 -> NULL */

    llcoro_region_reset(&r);
    CHECK_EQ(llcoro_region_used(&r), 0);
    llcoro_region_destroy(&r);
    llcoro_sites_destroy(m);
}

static void test_region(void) {
    unsigned char buf[256];
    struct llcoro_region r;
    llcoro_region_init_buffer(&r, buf, sizeof buf);
    void *a = llcoro_region_alloc(&r, 10, 8);
    void *b = llcoro_region_alloc(&r, 8, 64);
    CHECK(a != NULL && b != NULL);
    CHECK(((uintptr_t)b & 63) == 0);
    CHECK(llcoro_region_alloc(&r, 1000, 8) == NULL);
    CHECK(llcoro_region_alloc(&r, 8, 3) == NULL);
    llcoro_region_reset(&r);
    CHECK(llcoro_region_alloc(&r, 256, 1) == buf);
    CHECK(llcoro_region_alloc(&r, 1, 1) == NULL);
    llcoro_region_destroy(&r);
}

static void test_no_section(void) {
    CHECK(llcoro_section_begin() == NULL);
    CHECK(llcoro_section_end() == NULL);
    CHECK(llcoro_sites_default() != NULL);
    CHECK_EQ(llcoro_sites_count(llcoro_sites_default()), 0);
    CHECK_EQ(llcoro_sites_default_status(), LLCORO_OK);
    CHECK(llcoro_sites_lookup(llcoro_sites_default(), &keys[0]) == NULL);
}

int main(void) {
    test_lookup();
    test_errors();
    test_wide_entries();
    test_many();
    test_walk();
    test_region();
    test_no_section();
    puts("test_sites: ok");
    return 0;
}
