/* Region (bump) allocator, the collected heap and its copying (Cheney) collector. */
#define _POSIX_C_SOURCE 200809L
#include "llcoro/stackless.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- region ---------------------------------------------------------------------------------- */

int llcoro_region_init(struct llcoro_region *r, size_t capacity) {
    if (r == NULL) return LLCORO_E_ARG;
    r->base = malloc(capacity == 0 ? 1 : capacity);
    if (r->base == NULL) return LLCORO_E_NOMEM;
    r->top = r->base;
    r->limit = r->base + capacity;
    r->owned = 1;
    return LLCORO_OK;
}

void llcoro_region_init_buffer(struct llcoro_region *r, void *buffer, size_t size) {
    r->base = buffer;
    r->top = r->base;
    r->limit = r->base + size;
    r->owned = 0;
}

void *llcoro_region_alloc(struct llcoro_region *r, size_t size, size_t align) {
    if (align == 0 || (align & (align - 1)) != 0) return NULL;
    uintptr_t top = (uintptr_t)r->top;
    uintptr_t start = (top + (align - 1)) & ~(uintptr_t)(align - 1);
    if (start < top || start > (uintptr_t)r->limit || size > (uintptr_t)r->limit - start)
        return NULL;
    r->top = r->base + (start - (uintptr_t)r->base) + size;
    return r->base + (start - (uintptr_t)r->base);
}

void *llcoro_region_alloc_frame(struct llcoro_region *r, size_t size) {
    void *p = llcoro_region_alloc(r, size, 16);
    if (p != NULL) memset(p, 0, size);
    return p;
}

void llcoro_region_reset(struct llcoro_region *r) { r->top = r->base; }

size_t llcoro_region_used(const struct llcoro_region *r) { return (size_t)(r->top - r->base); }

void llcoro_region_destroy(struct llcoro_region *r) {
    if (r == NULL) return;
    if (r->owned) free(r->base);
    r->base = r->top = r->limit = NULL;
    r->owned = 0;
}

/* ---- cells ----------------------------------------------------------------------------------- */

enum { TAG_FORWARDED = 0, TAG_OBJECT = 1, TAG_FRAME = 2, TAG_FILL = 3, TAG_MASK = 7 };
#define MAX_WORDS UINT64_C(0xffffffff)
#define MAX_NPTRS ((UINT64_C(1) << 29) - 1)

static uint64_t make_header(uint64_t words, uint64_t nptrs, unsigned tag) {
    return words << 32 | nptrs << 3 | tag;
}
static uint64_t *header_of(const void *payload) {
    return (uint64_t *)(void *)((unsigned char *)(uintptr_t)payload - 8);
}
static unsigned hdr_tag(uint64_t h) { return (unsigned)(h & TAG_MASK); }
static uint64_t hdr_words(uint64_t h) { return h >> 32; }
static uint32_t hdr_nptrs(uint64_t h) { return (uint32_t)((h >> 3) & MAX_NPTRS); }

size_t llcoro_cell_size(const void *payload) { return (size_t)hdr_words(*header_of(payload)) * 8; }
uint32_t llcoro_cell_nptrs(const void *payload) {
    uint64_t h = *header_of(payload);
    return hdr_tag(h) == TAG_OBJECT ? hdr_nptrs(h) : 0;
}
int llcoro_cell_is_frame(const void *payload) { return hdr_tag(*header_of(payload)) == TAG_FRAME; }

/* ---- heap ------------------------------------------------------------------------------------ */

struct llcoro_heap {
    unsigned char *memory;
    struct llcoro_region from, to; /* allocation happens in `from` */
    const struct llcoro_sites *sites;
    struct llcoro_frame_conv conv;
    int poison;
    int collect_every_alloc;
    int collecting;
    void ***roots;
    size_t n_roots, cap_roots;
    struct llcoro_gc_stats stats;
};

static void fatal(const char *what, const void *where) {
    fprintf(stderr, "llcoro stackless runtime: %s (at %p)\n", what, where);
    abort();
}

struct llcoro_heap *llcoro_heap_create(const struct llcoro_heap_config *config) {
    if (config == NULL || config->semispace_bytes < 64) return NULL;
    size_t semi = (config->semispace_bytes + 15) & ~(size_t)15;
    struct llcoro_heap *h = calloc(1, sizeof *h);
    if (h == NULL) return NULL;
    h->memory = malloc(2 * semi);
    if (h->memory == NULL) {
        free(h);
        return NULL;
    }
    llcoro_region_init_buffer(&h->from, h->memory, semi);
    llcoro_region_init_buffer(&h->to, h->memory + semi, semi);
    h->sites = config->sites != NULL ? config->sites : llcoro_sites_default();
    h->conv = config->conv;
    h->poison = config->poison;
    h->collect_every_alloc = config->collect_every_alloc;
    return h;
}

void llcoro_heap_destroy(struct llcoro_heap *h) {
    if (h == NULL) return;
    free(h->memory);
    free(h->roots);
    free(h);
}

int llcoro_heap_add_root(struct llcoro_heap *h, void **slot) {
    if (h == NULL || slot == NULL) return LLCORO_E_ARG;
    if (h->n_roots == h->cap_roots) {
        size_t cap = h->cap_roots == 0 ? 8 : 2 * h->cap_roots;
        void ***r = realloc(h->roots, cap * sizeof *r);
        if (r == NULL) return LLCORO_E_NOMEM;
        h->roots = r;
        h->cap_roots = cap;
    }
    h->roots[h->n_roots++] = slot;
    return LLCORO_OK;
}

void llcoro_heap_remove_root(struct llcoro_heap *h, void **slot) {
    for (size_t i = h->n_roots; i-- > 0;) {
        if (h->roots[i] == slot) {
            h->roots[i] = h->roots[--h->n_roots];
            return;
        }
    }
}

static int in_region(const struct llcoro_region *r, const void *p) {
    return (uintptr_t)p >= (uintptr_t)r->base && (uintptr_t)p < (uintptr_t)r->top;
}

int llcoro_heap_contains(const struct llcoro_heap *h, const void *p) { return in_region(&h->from, p); }
size_t llcoro_heap_used(const struct llcoro_heap *h) { return llcoro_region_used(&h->from); }

void llcoro_heap_stats(const struct llcoro_heap *h, struct llcoro_gc_stats *out) { *out = h->stats; }

/* Reserves a cell of `words` payload words in `r` (a filler word first when the payload must be
 * 16-byte aligned and would not be); returns its header address, or NULL when `r` is full. */
static uint64_t *reserve(struct llcoro_region *r, uint64_t words, int align16) {
    size_t pad = (align16 && ((uintptr_t)r->top & 15) == 0) ? 8 : 0;
    size_t need = pad + 8 + (size_t)words * 8;
    if (need > (size_t)(r->limit - r->top)) return NULL;
    if (pad != 0) {
        *(uint64_t *)(void *)r->top = TAG_FILL;
        r->top += 8;
    }
    uint64_t *hdr = (uint64_t *)(void *)r->top;
    r->top += 8 + (size_t)words * 8;
    return hdr;
}

/* The collector's forwarding step: the new address of a pointer into from-space (copying its
 * cell on first sight), the pointer itself otherwise. */
static void *forward(struct llcoro_heap *h, void *p) {
    if (!in_region(&h->from, p)) return p;
    uint64_t *old = header_of(p);
    uint64_t hdr = *old;
    if (hdr_tag(hdr) == TAG_FORWARDED) return (void *)(uintptr_t)hdr;
    if (hdr_tag(hdr) != TAG_OBJECT && hdr_tag(hdr) != TAG_FRAME)
        fatal("GC pointer to something that is not a cell", p);
    uint64_t words = hdr_words(hdr);
    uint64_t *copy = reserve(&h->to, words, hdr_tag(hdr) == TAG_FRAME);
    if (copy == NULL) fatal("to-space overflow (corrupt heap?)", p);
    memcpy(copy, old, 8 + (size_t)words * 8);
    void *moved = copy + 1;
    *old = (uint64_t)(uintptr_t)moved; /* 8-aligned: tag bits 0, TAG_FORWARDED */
    h->stats.last_bytes_copied += 8 + words * 8;
    if (hdr_tag(hdr) == TAG_FRAME)
        h->stats.last_frames_copied++;
    else
        h->stats.last_objects_copied++;
    return moved;
}

static void forward_slot(struct llcoro_heap *h, void *frame, int32_t offset) {
    unsigned char *slot = (unsigned char *)frame + offset;
    void *p;
    memcpy(&p, slot, sizeof p);
    void *q = forward(h, p);
    if (q != p) memcpy(slot, &q, sizeof q);
}

/* Updates the GC slots of a frame suspended at `site` (and its caller link), in place. */
static void scan_frame_slots(struct llcoro_heap *h, void *frame, const struct llcoro_call_site *site,
                             size_t bytes) {
    for (uint32_t i = 0; i < site->gc_slot_count; i++) {
        int32_t off = site->gc_slots[i];
        if (bytes != 0 && (off < 0 || (size_t)off + 8 > bytes)) fatal("GC slot outside its frame", frame);
        forward_slot(h, frame, off);
    }
    /* The caller link is a GC slot by convention; forwarding is idempotent, so a link that is
       also listed is harmless. */
    forward_slot(h, frame, h->conv.link_offset);
}

static void scan_heap_frame(struct llcoro_heap *h, void *frame, size_t bytes) {
    int32_t ra = h->conv.ra_offset, link = h->conv.link_offset;
    if (ra < 0 || (size_t)ra + 8 > bytes || link < 0 || (size_t)link + 8 > bytes)
        fatal("frame smaller than its return-address or link slot", frame);
    const void *key;
    memcpy(&key, (unsigned char *)frame + ra, sizeof key);
    if (key == NULL) { /* allocated, not yet suspended: only its link */
        forward_slot(h, frame, link);
        return;
    }
    const struct llcoro_call_site *site = llcoro_sites_lookup(h->sites, key);
    if (site == NULL) fatal("frame suspended at an unknown return address", frame);
    if (site->ra_offset != ra) fatal("call site's ra_offset differs from the convention", frame);
    if (site->frame_size >= 0 && (size_t)site->frame_size > bytes) fatal("frame smaller than its call site says", frame);
    scan_frame_slots(h, frame, site, bytes);
}

/* The chain walk: frames outside the heap are not copied, so their GC slots are roots. Frames in
 * the heap are reached through the links and scanned when copied. */
static int chain_visit(void *ctx, void *frame, const struct llcoro_call_site *site, size_t depth) {
    struct llcoro_heap *h = ctx;
    (void)depth;
    h->stats.chain_frames++;
    if (!in_region(&h->from, frame)) scan_frame_slots(h, frame, site, 0);
    return 0;
}

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * UINT64_C(1000000000) + (uint64_t)ts.tv_nsec;
}

void *llcoro_heap_collect(struct llcoro_heap *h, void *sp) {
    if (h->collecting) fatal("collection during a collection", sp);
    h->collecting = 1;
    uint64_t start = now_ns();
    h->stats.last_bytes_copied = h->stats.last_objects_copied = h->stats.last_frames_copied = 0;
    h->stats.chain_frames = 0;

    /* 1. Frames on the chain outside the heap (the walk reads from-space, which copying does not
          modify apart from cell headers). */
    int st = llcoro_walk(h->sites, h->conv, sp, 0, chain_visit, h, NULL);
    if (st != LLCORO_OK) fatal(llcoro_status_string(st), sp);
    /* 2. The innermost frame and the explicit roots. */
    void *new_sp = forward(h, sp);
    for (size_t i = 0; i < h->n_roots; i++) *h->roots[i] = forward(h, *h->roots[i]);
    /* 3. Cheney scan of to-space. */
    unsigned char *scan = h->to.base;
    while (scan < h->to.top) {
        uint64_t hdr = *(uint64_t *)(void *)scan;
        void *payload = scan + 8;
        switch (hdr_tag(hdr)) {
        case TAG_FILL: scan += 8; continue;
        case TAG_OBJECT: {
            void **fields = payload;
            for (uint32_t i = 0, n = hdr_nptrs(hdr); i < n; i++) fields[i] = forward(h, fields[i]);
            break;
        }
        case TAG_FRAME: scan_heap_frame(h, payload, (size_t)hdr_words(hdr) * 8); break;
        default: fatal("corrupt cell in to-space", scan);
        }
        scan += 8 + (size_t)hdr_words(hdr) * 8;
    }
    /* 4. Flip. */
    struct llcoro_region old = h->from;
    h->from = h->to;
    h->to = old;
    if (h->poison) memset(h->to.base, 0xdb, (size_t)(h->to.top - h->to.base));
    llcoro_region_reset(&h->to);

    uint64_t pause = now_ns() - start;
    h->stats.collections++;
    h->stats.last_pause_ns = pause;
    h->stats.total_pause_ns += pause;
    if (pause > h->stats.max_pause_ns) h->stats.max_pause_ns = pause;
    h->stats.total_bytes_copied += h->stats.last_bytes_copied;
    h->collecting = 0;
    return new_sp;
}

static struct llcoro_sp_ptr alloc_cell(struct llcoro_heap *h, void *sp, size_t size, uint32_t nptrs,
                                       unsigned tag) {
    uint64_t words = ((uint64_t)size + 7) / 8;
    if (words > MAX_WORDS || nptrs > words || nptrs > MAX_NPTRS) fatal("allocation too large", sp);
    int align16 = tag == TAG_FRAME;
    h->stats.allocations++;
    /* Stress mode: collect first, so that everything live moves at every allocation. */
    if (h->collect_every_alloc) sp = llcoro_heap_collect(h, sp);
    uint64_t *hdr = reserve(&h->from, words, align16);
    if (hdr == NULL) {
        sp = llcoro_heap_collect(h, sp);
        hdr = reserve(&h->from, words, align16);
        if (hdr == NULL) fatal("out of memory: live data and the request do not fit", sp);
    }
    *hdr = make_header(words, tag == TAG_OBJECT ? nptrs : 0, tag);
    memset(hdr + 1, 0, (size_t)words * 8);
    h->stats.bytes_allocated += 8 + words * 8;
    struct llcoro_sp_ptr r = {sp, hdr + 1};
    return r;
}

struct llcoro_sp_ptr llcoro_heap_alloc(struct llcoro_heap *h, void *sp, size_t size, uint32_t nptrs) {
    return alloc_cell(h, sp, size, nptrs, TAG_OBJECT);
}

struct llcoro_sp_ptr llcoro_heap_alloc_frame(struct llcoro_heap *h, void *sp, size_t size) {
    return alloc_cell(h, sp, size, 0, TAG_FRAME);
}

/* ---- entry points for generated code -------------------------------------------------------- */

static _Thread_local struct llcoro_heap *current_heap;

void llcoro_set_current_heap(struct llcoro_heap *heap) { current_heap = heap; }
struct llcoro_heap *llcoro_current_heap(void) { return current_heap; }

static struct llcoro_heap *need_current(void *sp) {
    if (current_heap == NULL) fatal("no current heap (llcoro_set_current_heap)", sp);
    return current_heap;
}

struct llcoro_sp_ptr llcoro_gc_alloc(void *sp, uint64_t size, uint32_t nptrs) {
    return llcoro_heap_alloc(need_current(sp), sp, (size_t)size, nptrs);
}

struct llcoro_sp_ptr llcoro_gc_alloc_frame(void *sp, uint64_t size) {
    return llcoro_heap_alloc_frame(need_current(sp), sp, (size_t)size);
}

struct llcoro_sp_ptr llcoro_gc_collect(void *sp) {
    struct llcoro_sp_ptr r = {llcoro_heap_collect(need_current(sp), sp), NULL};
    return r;
}
