/* twins.ll's @pick makes one of two calls that are followed by the same code. Each call must
 * still store its own key: the table must hold two call sites with two different keys (the
 * runtime's start-up map refuses a key shared by two sites), and each call, made once, must find
 * its own site. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "llcoro/stackless.h"

struct ret {
    void *sp;
    int64_t value;
};
struct ret pick(void *sp, _Bool c, int64_t x);

static _Alignas(16) unsigned char frame[256];
static const void *keys[2];
static int calls;

void *frame_for(int32_t size) {
    if (size < 0 || (size_t)size > sizeof frame) return NULL;
    memset(frame, 0, sizeof frame);
    return frame;
}

struct ret probe(void *sp, int64_t x) {
    const void *key;
    memcpy(&key, (char *)sp + 8, sizeof key);
    if (calls < 2) keys[calls] = key;
    calls++;
    return (struct ret){sp, 2 * x};
}

int main(void) {
    static void *root[2];
    const struct llcoro_sites *sites = llcoro_sites_default();
    printf("table: %s, %zu call sites\n", llcoro_status_string(llcoro_sites_default_status()),
           llcoro_sites_count(sites));
    struct ret a = pick(root, 1, 5);
    struct ret b = pick(root, 0, 7);
    printf("results %lld %lld same_sp=%d\n", (long long)a.value, (long long)b.value,
           a.sp == (void *)root && b.sp == (void *)root);
    const struct llcoro_call_site *sa = llcoro_sites_lookup(sites, keys[0]);
    const struct llcoro_call_site *sb = llcoro_sites_lookup(sites, keys[1]);
    printf("keys differ: %d, both found: %d, two sites: %d\n", keys[0] != keys[1], sa != NULL && sb != NULL,
           sa != sb);
    return 0;
}

/* EXPECT:
table: ok, 2 call sites
results 15 21 same_sp=1
keys differ: 1, both found: 1, two sites: 1
*/
