/* Call-site lookup (return address -> call site) and the frame walker. */
#include "llcoro/stackless.h"

#include <stdlib.h>
#include <string.h>

struct entry {
    uintptr_t key; /* 0: empty */
    const struct llcoro_call_site *site;
};

struct llcoro_sites {
    struct entry *slots;
    size_t mask; /* capacity - 1, capacity a power of two */
    unsigned shift;
    size_t count;
};

const char *llcoro_status_string(int status) {
    switch (status) {
    case LLCORO_OK: return "ok";
    case LLCORO_E_MAGIC: return "frame table: bad magic";
    case LLCORO_E_VERSION: return "frame table: unsupported version";
    case LLCORO_E_ENTRY_SIZE: return "frame table: bad entry size";
    case LLCORO_E_TABLE: return "frame table: malformed table or call site";
    case LLCORO_E_DUPLICATE: return "frame table: two call sites share a return address";
    case LLCORO_E_NOMEM: return "out of memory";
    case LLCORO_E_UNKNOWN_RA: return "frame: return address of no known call site";
    case LLCORO_E_RA_OFFSET: return "frame: call site's ra_offset differs from the convention";
    case LLCORO_E_DEPTH: return "frame chain longer than the limit";
    case LLCORO_E_ARG: return "invalid argument";
    default: return "unknown status";
    }
}

static size_t hash_index(const struct llcoro_sites *m, uintptr_t key) {
    /* Fibonacci hashing: the top bits of key * 2^64/phi. */
    return (size_t)(((uint64_t)key * UINT64_C(0x9E3779B97F4A7C15)) >> m->shift) & m->mask;
}

static int check_table(const struct llcoro_frame_table *t) {
    if (t->magic != LLCORO_FRAME_TABLE_MAGIC) return LLCORO_E_MAGIC;
    if (t->version != LLCORO_FRAME_TABLE_VERSION) return LLCORO_E_VERSION;
    if (t->entry_size < sizeof(struct llcoro_call_site) || t->entry_size % 8 != 0)
        return LLCORO_E_ENTRY_SIZE;
    if (t->count != 0 && t->sites == NULL) return LLCORO_E_TABLE;
    return LLCORO_OK;
}

static const struct llcoro_call_site *site_at(const struct llcoro_frame_table *t, uint32_t i) {
    return (const struct llcoro_call_site *)(const void *)((const unsigned char *)t->sites +
                                                             (size_t)i * t->entry_size);
}

static int insert(struct llcoro_sites *m, const struct llcoro_call_site *s) {
    uintptr_t key = (uintptr_t)s->return_address;
    if (key == 0) return LLCORO_E_TABLE;
    /* A continuation the optimizer deleted: no frame can wait there, and such sites share the key. */
    if (s->return_address == LLCORO_DELETED_RETURN_ADDRESS) return LLCORO_OK;
    if (s->gc_slot_count != 0 && s->gc_slots == NULL) return LLCORO_E_TABLE;
    for (size_t i = hash_index(m, key);; i = (i + 1) & m->mask) {
        struct entry *e = &m->slots[i];
        if (e->key == 0) {
            e->key = key;
            e->site = s;
            m->count++;
            return LLCORO_OK;
        }
        if (e->key == key) return e->site == s ? LLCORO_OK : LLCORO_E_DUPLICATE;
    }
}

/* Builds from `n` tables, table i being get(ctx, i). */
static int build(const struct llcoro_frame_table *(*get)(const void *, size_t), const void *ctx,
                 size_t n, struct llcoro_sites **out) {
    if (out == NULL || (n != 0 && ctx == NULL)) return LLCORO_E_ARG;
    *out = NULL;
    size_t total = 0;
    for (size_t i = 0; i < n; i++) {
        const struct llcoro_frame_table *t = get(ctx, i);
        if (t == NULL) return LLCORO_E_ARG;
        int st = check_table(t);
        if (st != LLCORO_OK) return st;
        total += t->count;
    }
    struct llcoro_sites *m = calloc(1, sizeof *m);
    if (m == NULL) return LLCORO_E_NOMEM;
    /* Load factor at most 1/2. */
    size_t cap = 8;
    unsigned bits = 3;
    while (cap < 2 * total) {
        cap <<= 1;
        bits++;
    }
    m->slots = calloc(cap, sizeof *m->slots);
    if (m->slots == NULL) {
        free(m);
        return LLCORO_E_NOMEM;
    }
    m->mask = cap - 1;
    m->shift = 64 - bits;
    for (size_t i = 0; i < n; i++) {
        const struct llcoro_frame_table *t = get(ctx, i);
        for (uint32_t j = 0; j < t->count; j++) {
            int st = insert(m, site_at(t, j));
            if (st != LLCORO_OK) {
                llcoro_sites_destroy(m);
                return st;
            }
        }
    }
    *out = m;
    return LLCORO_OK;
}

static const struct llcoro_frame_table *get_contiguous(const void *ctx, size_t i) {
    return (const struct llcoro_frame_table *)ctx + i;
}

static const struct llcoro_frame_table *get_listed(const void *ctx, size_t i) {
    return ((const struct llcoro_frame_table *const *)ctx)[i];
}

int llcoro_sites_build(const struct llcoro_frame_table *tables, size_t n_tables,
                       struct llcoro_sites **out) {
    return build(get_contiguous, tables, n_tables, out);
}

int llcoro_sites_build_from_list(const struct llcoro_frame_table *const *tables, size_t n_tables,
                                 struct llcoro_sites **out) {
    return build(get_listed, (const void *)tables, n_tables, out);
}

void llcoro_sites_destroy(struct llcoro_sites *m) {
    if (m == NULL) return;
    free(m->slots);
    free(m);
}

const struct llcoro_call_site *llcoro_sites_lookup(const struct llcoro_sites *m,
                                                   const void *return_address) {
    uintptr_t key = (uintptr_t)return_address;
    if (m == NULL || key == 0 || return_address == LLCORO_DELETED_RETURN_ADDRESS) return NULL;
    for (size_t i = hash_index(m, key);; i = (i + 1) & m->mask) {
        const struct entry *e = &m->slots[i];
        if (e->key == key) return e->site;
        if (e->key == 0) return NULL;
    }
}

size_t llcoro_sites_count(const struct llcoro_sites *m) { return m == NULL ? 0 : m->count; }

/* ---- the program's own tables --------------------------------------------------------------- */

/* Defined by the linker when some object file has a "llcoro_frames" section; weak so that a
 * program without one links (they are then NULL). */
extern const struct llcoro_frame_table __start_llcoro_frames[] __attribute__((weak));
extern const struct llcoro_frame_table __stop_llcoro_frames[] __attribute__((weak));

const struct llcoro_frame_table *llcoro_section_begin(void) { return __start_llcoro_frames; }
const struct llcoro_frame_table *llcoro_section_end(void) { return __stop_llcoro_frames; }

static struct entry empty_slots[1];
static struct llcoro_sites empty_map = {empty_slots, 0, 63, 0};
static struct llcoro_sites *default_map;
static int default_status;

__attribute__((constructor)) static void build_default(void) {
    const struct llcoro_frame_table *b = llcoro_section_begin(), *e = llcoro_section_end();
    if (b == NULL || e == NULL || b == e) return;
    struct llcoro_sites *m = NULL;
    default_status = llcoro_sites_build(b, (size_t)(e - b), &m);
    default_map = m;
}

__attribute__((destructor)) static void free_default(void) {
    llcoro_sites_destroy(default_map);
    default_map = NULL;
}

const struct llcoro_sites *llcoro_sites_default(void) {
    return default_map != NULL ? default_map : &empty_map;
}

int llcoro_sites_default_status(void) { return default_status; }

/* ---- walking ------------------------------------------------------------------------------- */

static void *load_ptr(const void *frame, int32_t offset) {
    void *p;
    memcpy(&p, (const unsigned char *)frame + offset, sizeof p);
    return p;
}

int llcoro_walk(const struct llcoro_sites *sites, struct llcoro_frame_conv conv, void *innermost,
                size_t max_frames, llcoro_frame_visitor visit, void *ctx, void **root_out) {
    if (sites == NULL) return LLCORO_E_ARG;
    void *frame = innermost;
    size_t depth = 0;
    int st = LLCORO_OK;
    while (frame != NULL) {
        const void *key = load_ptr(frame, conv.ra_offset);
        if (key == NULL) break; /* the root frame */
        if (max_frames != 0 && depth == max_frames) {
            st = LLCORO_E_DEPTH;
            break;
        }
        const struct llcoro_call_site *site = llcoro_sites_lookup(sites, key);
        if (site == NULL) {
            st = LLCORO_E_UNKNOWN_RA;
            break;
        }
        if (site->ra_offset != conv.ra_offset) {
            st = LLCORO_E_RA_OFFSET;
            break;
        }
        void *caller = load_ptr(frame, conv.link_offset);
        if (visit != NULL) {
            st = visit(ctx, frame, site, depth);
            if (st != 0) break;
        }
        frame = caller;
        depth++;
    }
    if (root_out != NULL) *root_out = st == LLCORO_OK ? frame : NULL;
    return st;
}

static int count_frame(void *ctx, void *frame, const struct llcoro_call_site *site, size_t depth) {
    (void)frame;
    (void)site;
    *(size_t *)ctx = depth + 1;
    return 0;
}

long llcoro_chain_depth(const struct llcoro_sites *sites, struct llcoro_frame_conv conv,
                        void *innermost) {
    size_t n = 0;
    int st = llcoro_walk(sites, conv, innermost, 0, count_frame, &n, NULL);
    return st != LLCORO_OK ? -(long)st : (long)n;
}
