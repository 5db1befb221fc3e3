/* Runs align.ll's @keep, whose spill area starts at 40 (8-aligned) and holds values that need 16
 * bytes of alignment: a <4 x i32>, an <8 x float>, an i128 and a long double live across a call.
 * Frames come from the runtime's region (16-byte aligned), and the callee overwrites the stack
 * below it. The result is checked against the same computation in plain C; the call site's
 * spill size against the layout docs/stackless.md gives: padding from 40 to 48, then the four
 * fields of 16, 32, 16 and 16 bytes (none shares: all are live across the one call), 88 bytes. */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "llcoro/stackless.h"

typedef int32_t v4i __attribute__((vector_size(16)));
typedef float v8f __attribute__((vector_size(32)));
struct ret {
    void *sp;
    int64_t value;
};
struct in {
    v4i v;         /* 0 */
    v8f w;         /* 32 */
    __int128 q;    /* 64 */
    long double e; /* 80 */
};
_Static_assert(__builtin_offsetof(struct in, w) == 32 && __builtin_offsetof(struct in, q) == 64 &&
                   __builtin_offsetof(struct in, e) == 80,
               "the layout align.ll reads");
struct ret keep(void *sp, const struct in *in, int64_t n);

static struct llcoro_region region;
static uint32_t spill_size;

void *frame_alloc(int64_t size) { return llcoro_region_alloc_frame(&region, (size_t)size); }

/* Writes over the stack below it, notes its caller's spill size, and returns n * 3. */
__attribute__((noinline)) struct ret scramble(void *sp, int64_t n) {
    volatile unsigned char junk[4096];
    memset((void *)junk, 0xa5, sizeof junk);
    void *key;
    memcpy(&key, (char *)sp + 8, sizeof key);
    const struct llcoro_call_site *site = llcoro_sites_lookup(llcoro_sites_default(), key);
    spill_size = site ? site->spill_size : 0;
    return (struct ret){sp, n * 3 + junk[7] - 0xa5};
}

static int64_t expected(const struct in *in, int64_t n) {
    v4i v = in->v;
    v8f w = in->w;
    __int128 q = in->q;
    long double e = in->e;
    v4i v2 = v * (v4i){3, 5, 7, 11};
    v8f w2 = w + (v8f){0.5f, 1.5f, 2.5f, 3.5f, 4.5f, 5.5f, 6.5f, 7.5f};
    unsigned __int128 q2 = (unsigned __int128)q * 1000000007u;
    long double e2 = e * 3.0L;
    int32_t vs = (int32_t)((uint32_t)v2[0] + (uint32_t)v2[1] + (uint32_t)v2[2] + (uint32_t)v2[3]);
    float ws = 0.0f;
    for (int i = 0; i < 8; i++) ws += w2[i];
    uint64_t qt = (uint64_t)(q2 ^ (q2 >> 64));
    uint64_t s = ((uint64_t)(int64_t)vs + (uint64_t)(int64_t)ws) ^ qt;
    return (int64_t)(s + (uint64_t)(int64_t)e2 + (uint64_t)(n * 3));
}

int main(void) {
    if (llcoro_sites_default_status() != LLCORO_OK || llcoro_region_init(&region, 1 << 16) != 0) return 1;
    void *root[4] = {0};
    for (int64_t k = 1; k <= 3; k++) {
        struct in in = {{(int32_t)(k * 1000003), -7, (int32_t)(k << 20), 123456789},
                        {1.25f * (float)k, 2, 3, 4, 5, 6, 7, -8.5f},
                        ((__int128)k << 90) + 987654321987654321,
                        1.0e15L + (long double)k};
        struct ret r = keep(root, &in, 41 * k);
        printf("k=%" PRId64 ": %s, same sp %d, spill area %u bytes\n", k,
               r.value == expected(&in, 41 * k) ? "same as C" : "DIFFERENT", r.sp == (void *)root,
               spill_size);
    }
    llcoro_region_destroy(&region);
    return 0;
}

/* EXPECT:
k=1: same as C, same sp 1, spill area 88 bytes
k=2: same as C, same sp 1, spill area 88 bytes
k=3: same as C, same sp 1, spill area 88 bytes
*/
