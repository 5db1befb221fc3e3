/* llcoro stackless runtime: call-site lookup, frame walking, frame/object allocation and a
 * demo copying (Cheney) collector for stackless heap frames lowered by llcoro.
 *
 * C11. See runtime/stackless/README.md for an overview and docs/stackless.md for the lowering.
 *
 * ---------------------------------------------------------------------------------------------
 * Frame descriptor table (version 1)
 * ---------------------------------------------------------------------------------------------
 * llcoro emits one `struct llcoro_frame_table` per translation unit in the ELF section
 * "llcoro_frames" (8-byte aligned, 24 bytes each, so the linker's concatenation is an array of
 * tables bounded by __start_llcoro_frames / __stop_llcoro_frames). Each table points to an array
 * of `count` call sites, each `entry_size` bytes apart (56 in version 1; a larger entry_size is
 * accepted and only the version-1 fields are read).
 *
 * ---------------------------------------------------------------------------------------------
 * Frame conventions (what the runtime assumes of every frame)
 * ---------------------------------------------------------------------------------------------
 * A frame is the memory at a frame pointer `sp`; every offset below is a byte offset from sp.
 *
 *  1. Return-address slot. A frame suspended at a call (a gc.frame.statepoint) holds, at
 *     `ra_offset`, the key of that call: the blockaddress of the block after the call, which is
 *     the `return_address` of exactly one call site in the tables. Because the runtime needs the
 *     offset to read the key before it knows the call site, the return-address offset is a
 *     convention shared by all frames of a program (`struct llcoro_frame_conv::ra_offset`; the
 *     front end already has to agree on it, since a callee's `frame.layout(sp, ra_offset)` names
 *     its caller's slot). The runtime checks that the call site found agrees with it.
 *  2. Caller link. The caller's frame pointer is kept by the front end in an explicit GC slot of
 *     the callee's frame at `link_offset` (`struct llcoro_frame_conv::link_offset`, 0 by default,
 *     as in the examples). Frames therefore form a chain from the innermost frame to a root frame.
 *  3. Root frame. The chain ends at a frame whose return-address slot holds NULL (the root
 *     frame, typically made by native code before the first stackless call), or at a NULL link.
 *     The root frame is not described by any call site: it is neither visited, scanned nor moved.
 *  4. GC slots. The `gc_slots` of a frame's current call site are the offsets of explicit slots
 *     holding GC pointers: pointers to GC objects or to other frames. Both may move: the
 *     collector rewrites these slots. Each holds a full pointer (8 bytes). A value that is not
 *     inside the collected heap (NULL, static data, a frame outside the heap) is left as is.
 *  5. The spill area and the return-address slot are never modified by the collector (they are
 *     copied bitwise when a frame moves). Slots not listed in the current call site are copied
 *     bitwise and not updated (they are dead at that call).
 *  6. A frame pointer and an object pointer point to the start of the payload returned by the
 *     allocator (no interior pointers). Frames allocated from the heap are 16-byte aligned and
 *     zeroed; frames must not use negative offsets if they live in the collected heap.
 *
 * ---------------------------------------------------------------------------------------------
 * Heap cells (objects and frames in the collected heap)
 * ---------------------------------------------------------------------------------------------
 * Every cell is an 8-byte header word followed by its payload (a multiple of 8 bytes):
 *     bits  0..2   tag: 1 = object, 2 = frame, 3 = one-word filler (alignment padding);
 *                  0 = forwarded during a collection (the whole word is the new address)
 *     bits  3..31  pointer count P (objects): the first P payload words are GC pointers,
 *                  the rest is raw data never looked at. P = 0: no pointers; P = size: all words.
 *     bits 32..63  payload size in 8-byte words
 * A frame's GC pointers are not in its header: they are the gc_slots of the call site named by
 * the key in its return-address slot (plus the caller link). A frame whose return-address slot is
 * NULL (allocated, not yet suspended) is copied but not scanned.
 */
#ifndef LLCORO_STACKLESS_H
#define LLCORO_STACKLESS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- table format ------------------------------------------------------------------------ */

#define LLCORO_FRAME_TABLE_MAGIC 0x5446434cu /* "LCFT" little-endian */
#define LLCORO_FRAME_TABLE_VERSION 1u
#define LLCORO_FRAME_SECTION "llcoro_frames"

struct llcoro_call_site;

struct llcoro_frame_table {
    uint32_t magic;      /* LLCORO_FRAME_TABLE_MAGIC */
    uint16_t version;    /* 1 */
    uint16_t entry_size; /* sizeof(struct llcoro_call_site) == 56 */
    uint32_t count;      /* number of call sites */
    uint32_t reserved;   /* 0 */
    const struct llcoro_call_site *sites;
};

struct llcoro_call_site {
    const void *return_address; /* the key: blockaddress of the block after the call */
    const void *function;       /* the stackless function containing the call */
    const void *reentry;        /* its re-entry function, or NULL (not emitted yet) */
    int32_t ra_offset;          /* return-address slot, from sp */
    int32_t spill_offset;       /* spill area, from sp */
    uint32_t spill_size;        /* spill area bytes */
    int32_t frame_size;         /* frame bytes, or -1 when unknown */
    uint32_t gc_slot_count;
    uint32_t reserved;
    const int32_t *gc_slots; /* offsets from sp of the explicit slots holding GC pointers */
};

#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
_Static_assert(sizeof(void *) == 8, "llcoro stackless runtime: 64-bit targets only");
_Static_assert(sizeof(struct llcoro_frame_table) == 24, "frame table is 24 bytes");
_Static_assert(sizeof(struct llcoro_call_site) == 56, "call site is 56 bytes");
#endif

/* ---- status codes ------------------------------------------------------------------------ */

enum llcoro_status {
    LLCORO_OK = 0,
    LLCORO_E_MAGIC,       /* a table's magic is wrong */
    LLCORO_E_VERSION,     /* a table's version is not 1 */
    LLCORO_E_ENTRY_SIZE,  /* entry_size < 56 or not a multiple of 8 */
    LLCORO_E_TABLE,       /* a malformed table or site (NULL sites, NULL key, NULL gc_slots) */
    LLCORO_E_DUPLICATE,   /* two different call sites have the same return address */
    LLCORO_E_NOMEM,       /* out of memory */
    LLCORO_E_UNKNOWN_RA,  /* a frame's return-address slot holds a key no table knows */
    LLCORO_E_RA_OFFSET,   /* the call site found has a different ra_offset than the convention */
    LLCORO_E_DEPTH,       /* the chain is longer than the walk's limit (a cycle?) */
    LLCORO_E_ARG          /* an invalid argument */
};

const char *llcoro_status_string(int status);

/* ---- call-site lookup ---------------------------------------------------------------------- */

/* A return address -> call site map (open-addressing hash table, O(1) lookup). Immutable once
 * built, so it may be shared between threads. */
struct llcoro_sites;

/* Builds a map from `n_tables` tables laid out contiguously (as in the ELF section). The same key
 * listed twice for the same site entry is accepted once; for different entries it is an error.
 * Returns a status; on success *out owns the map (free it with llcoro_sites_destroy). */
int llcoro_sites_build(const struct llcoro_frame_table *tables, size_t n_tables,
                       struct llcoro_sites **out);

/* The same from an array of table pointers (tables from unrelated places). */
int llcoro_sites_build_from_list(const struct llcoro_frame_table *const *tables, size_t n_tables,
                                 struct llcoro_sites **out);

void llcoro_sites_destroy(struct llcoro_sites *sites);

/* The key of a call site whose continuation the optimizer deleted: LLVM replaces the blockaddress of
 * a deleted block with `inttoptr (i32 1 to ptr)`. It happens to a call in code LLVM proves
 * unreachable (then no frame ever holds the key), and to a call LLVM proves never returns (then the
 * frame suspended in it holds this key, and a walk of its chain stops at LLCORO_E_UNKNOWN_RA). Such
 * sites, which may be many, are left out of the map. */
#define LLCORO_DELETED_RETURN_ADDRESS ((const void *)1)

/* The call site whose return address is `return_address`, or NULL (always for the deleted key). */
const struct llcoro_call_site *llcoro_sites_lookup(const struct llcoro_sites *sites,
                                                   const void *return_address);

size_t llcoro_sites_count(const struct llcoro_sites *sites);

/* The map of the program's own tables (the "llcoro_frames" section), built by a constructor at
 * start-up. Never NULL: a program without tables gets an empty map. If the section is malformed
 * the map is empty and llcoro_sites_default_status() says why. */
const struct llcoro_sites *llcoro_sites_default(void);
int llcoro_sites_default_status(void);

/* The section's bounds (both NULL when the program has no table; weak references). */
const struct llcoro_frame_table *llcoro_section_begin(void);
const struct llcoro_frame_table *llcoro_section_end(void);

/* ---- frame walking ------------------------------------------------------------------------- */

struct llcoro_frame_conv {
    int32_t ra_offset;   /* return-address slot of every frame */
    int32_t link_offset; /* explicit GC slot holding the caller's frame pointer */
};

/* link at 0, return address at 8 (tests/stackless/opaque/fib.ll). The seed's @foo/@bar use
 * { 16, 0 }. */
#define LLCORO_FRAME_CONV_DEFAULT {8, 0}

/* Called for each frame from the innermost (depth 0) outwards, with its call site. The walker
 * reads the caller link before calling the visitor, so the visitor may rewrite the frame's
 * slots. A non-zero return stops the walk, and llcoro_walk returns it. */
typedef int (*llcoro_frame_visitor)(void *ctx, void *frame, const struct llcoro_call_site *site,
                                    size_t depth);

/* Walks the chain from `innermost` to the root frame (convention 3; the root is not visited).
 * `max_frames` bounds the walk (0: no bound). If `root_out` is not NULL it receives the root
 * frame (or NULL when the chain ended at a NULL link). Returns LLCORO_OK, a visitor's non-zero
 * value, or an error (LLCORO_E_UNKNOWN_RA, LLCORO_E_RA_OFFSET, LLCORO_E_DEPTH). */
int llcoro_walk(const struct llcoro_sites *sites, struct llcoro_frame_conv conv, void *innermost,
                size_t max_frames, llcoro_frame_visitor visit, void *ctx, void **root_out);

/* The depth of the chain (number of frames before the root), or -(status) on error. */
long llcoro_chain_depth(const struct llcoro_sites *sites, struct llcoro_frame_conv conv,
                        void *innermost);

/* ---- region (bump) allocator ---------------------------------------------------------------- */

struct llcoro_region {
    unsigned char *base, *top, *limit;
    int owned; /* base was malloc'd by llcoro_region_init */
};

int llcoro_region_init(struct llcoro_region *r, size_t capacity);
void llcoro_region_init_buffer(struct llcoro_region *r, void *buffer, size_t size);
/* `align` is a power of two; NULL when the region is full. Memory is not cleared. */
void *llcoro_region_alloc(struct llcoro_region *r, size_t size, size_t align);
/* A zeroed, 16-byte aligned frame of `size` bytes (not collected: for front ends without a GC). */
void *llcoro_region_alloc_frame(struct llcoro_region *r, size_t size);
void llcoro_region_reset(struct llcoro_region *r);
size_t llcoro_region_used(const struct llcoro_region *r);
void llcoro_region_destroy(struct llcoro_region *r);

/* ---- collected heap ------------------------------------------------------------------------- */

struct llcoro_heap;

struct llcoro_heap_config {
    size_t semispace_bytes;         /* size of each of the two semispaces */
    const struct llcoro_sites *sites; /* NULL: llcoro_sites_default() */
    struct llcoro_frame_conv conv;
    int poison; /* fill the old semispace with 0xdb after each collection (catches stale
                   pointers; costs time proportional to the semispace) */
    int collect_every_alloc; /* stress mode: when non-zero, every llcoro_heap_alloc and
                                llcoro_heap_alloc_frame (so every llcoro_gc_alloc* call) collects
                                before it allocates, so every live frame and object in the heap
                                moves at every allocation (collections == allocations). Costs a
                                collection per allocation: for tests. Last, so that positional
                                initializers written before it existed still compile (the field
                                is then 0, off). */
};

struct llcoro_gc_stats {
    uint64_t collections;
    uint64_t last_pause_ns, max_pause_ns, total_pause_ns;
    uint64_t last_bytes_copied, total_bytes_copied; /* headers included */
    uint64_t last_objects_copied, last_frames_copied;
    uint64_t chain_frames;     /* frames on the chain at the last collection */
    uint64_t bytes_allocated;  /* since creation, headers included */
    uint64_t allocations;      /* llcoro_heap_alloc and llcoro_heap_alloc_frame calls since
                                  creation (in stress mode, each made one collection) */
};

/* The result of every runtime function a statepoint calls: {ptr sp, T result} (two pointers are
 * returned in registers, like LLVM's { ptr, ptr }). `sp` is the relocated innermost frame. */
struct llcoro_sp_ptr {
    void *sp;
    void *ptr;
};

struct llcoro_heap *llcoro_heap_create(const struct llcoro_heap_config *config);
void llcoro_heap_destroy(struct llcoro_heap *heap);

/* Registers / unregisters `*slot` as a root (a GC pointer outside frames). */
int llcoro_heap_add_root(struct llcoro_heap *heap, void **slot);
void llcoro_heap_remove_root(struct llcoro_heap *heap, void **slot);

/* Collects: the roots are the innermost frame `sp` (its chain and everything reachable from the
 * GC slots of its frames) and the registered roots. Frames and objects in the heap move; the
 * relocated `sp` is returned (sp itself when it is not in the heap). sp may be NULL. */
void *llcoro_heap_collect(struct llcoro_heap *heap, void *sp);

/* An object of `size` bytes (rounded up to 8) whose first `nptrs` words are GC pointers
 * (initialised to NULL; the rest zeroed too). Collects first when the heap is full, or always in
 * stress mode (`collect_every_alloc`): `sp` is the
 * innermost frame, suspended at the call to this function; the result's sp is its relocated
 * value. Aborts when the live data do not fit. */
struct llcoro_sp_ptr llcoro_heap_alloc(struct llcoro_heap *heap, void *sp, size_t size,
                                       uint32_t nptrs);
/* A zeroed, 16-byte aligned frame of `size` bytes in the heap (collects like llcoro_heap_alloc). */
struct llcoro_sp_ptr llcoro_heap_alloc_frame(struct llcoro_heap *heap, void *sp, size_t size);

void llcoro_heap_stats(const struct llcoro_heap *heap, struct llcoro_gc_stats *out);
size_t llcoro_heap_used(const struct llcoro_heap *heap);
int llcoro_heap_contains(const struct llcoro_heap *heap, const void *p);

/* Cell header inspection (for tests and debuggers). */
size_t llcoro_cell_size(const void *payload);   /* payload bytes */
uint32_t llcoro_cell_nptrs(const void *payload); /* 0 for frames */
int llcoro_cell_is_frame(const void *payload);

/* ---- entry points for generated code (the current thread's heap) ---------------------------- */

void llcoro_set_current_heap(struct llcoro_heap *heap);
struct llcoro_heap *llcoro_current_heap(void);
/* Call these through a gc.frame.statepoint: `{ptr, ptr} @llcoro_gc_alloc(ptr sp, i64, i32)`. */
struct llcoro_sp_ptr llcoro_gc_alloc(void *sp, uint64_t size, uint32_t nptrs);
struct llcoro_sp_ptr llcoro_gc_alloc_frame(void *sp, uint64_t size);
struct llcoro_sp_ptr llcoro_gc_collect(void *sp);

#ifdef __cplusplus
}
#endif

#endif
