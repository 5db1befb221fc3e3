/* Drives gen.ll's @producer: while it is suspended in its second call, emit() copies its frame; once
 * @producer has returned, main() continues the copy, twice, through the re-entry function the
 * frame descriptor table gives for the key in the copy's return-address slot, with a result of
 * its own. Each continuation runs the rest of the loop from the captured state. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The format and the section map come from the runtime (runtime/stackless). */
#include "llcoro/stackless.h"

extern const struct llcoro_frame_table __start_llcoro_frames[];
extern const struct llcoro_frame_table __stop_llcoro_frames[];

struct ret { void *sp; int64_t value; };
struct ret producer(void *sp, int64_t n);
typedef struct ret (*reentry_fn)(void *frame, void *result);

static const struct llcoro_call_site *lookup(const void *key) {
    return llcoro_sites_lookup(llcoro_sites_default(), key);
}

static void *frames[16];
static int nframes;
static void *snapshot;
static size_t snapshot_size;

void *alloc_frame(int32_t size) {
    void *p = calloc(1, (size_t)size);
    frames[nframes++] = p;
    return p;
}

struct ret emit(void *sp, int64_t v) {
    printf("emit %lld\n", (long long)v);
    if (v == 1 && !snapshot) {
        /* The frame is suspended at this call: its key says which call site, and the site how
         * big the frame is up to the end of its spill area. */
        const void *key;
        memcpy(&key, (char *)sp + 8, sizeof key);
        const struct llcoro_call_site *s = lookup(key);
        if (!s) { printf("no call site\n"); exit(1); }
        snapshot_size = (size_t)s->spill_offset + s->spill_size;
        snapshot = malloc(snapshot_size);
        memcpy(snapshot, sp, snapshot_size);
    }
    return (struct ret){sp, v * 10};
}

int main(void) {
    static char root[16];
    struct ret r = producer(root, 3);
    printf("done %lld same_sp=%d\n", (long long)r.value, r.sp == root);
    for (int k = 0; k < 2; k++) {
        void *copy = malloc(snapshot_size);
        memcpy(copy, snapshot, snapshot_size);
        const void *key;
        memcpy(&key, (char *)copy + 8, sizeof key);
        const struct llcoro_call_site *s = lookup(key);
        if (!s || !s->reentry) { printf("no re-entry\n"); return 1; }
        int64_t result = 1000 * (k + 1);
        struct ret again = ((reentry_fn)s->reentry)(copy, &result);
        printf("again %lld same_sp=%d\n", (long long)again.value, again.sp == root);
        free(copy);
    }
    free(snapshot);
    for (int i = 0; i < nframes; i++) free(frames[i]);
    return 0;
}

/* EXPECT:
emit 0
emit 1
emit 2
done 30 same_sp=1
emit 2
again 1020 same_sp=1
emit 2
again 2020 same_sp=1
*/
