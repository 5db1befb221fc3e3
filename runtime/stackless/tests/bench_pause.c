/* Pause time of the collector for a few live-set sizes: a chain of frames in the heap, each frame
 * holding a list of objects. Prints one line per size: live bytes copied per collection and the
 * min / median / max pause over repeated collections. Not a test: no figure is checked. */
#include "check.h"
#include "llcoro/stackless.h"

#include <stdint.h>
#include <string.h>

static const unsigned char key;
static const unsigned char fn;
static const int32_t slots[] = {0, 16};
static const struct llcoro_call_site site = {&key, &fn, NULL, 8, 24, 8, 32, 2, 0, slots};
static const struct llcoro_frame_table table = {LLCORO_FRAME_TABLE_MAGIC, 1, 56, 1, 0, &site};

static void *get(const void *b, int o) {
    void *p;
    memcpy(&p, (const char *)b + o, sizeof p);
    return p;
}
static void put(void *b, int o, const void *v) { memcpy((char *)b + o, &v, sizeof v); }

static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    int reps = argc > 1 ? atoi(argv[1]) : 21;
    if (reps < 1 || reps > 1000) reps = 21;
    struct llcoro_sites *map;
    CHECK_EQ(llcoro_sites_build(&table, 1, &map), LLCORO_OK);
    const struct llcoro_frame_conv conv = LLCORO_FRAME_CONV_DEFAULT;
    static const size_t frames_for[] = {16, 256, 1024};
    static const size_t objs_per_frame[] = {64, 64, 128};
    uint64_t *pauses = malloc((size_t)reps * sizeof *pauses);
    CHECK(pauses != NULL);
    for (size_t s = 0; s < 3; s++) {
        size_t nframes = frames_for[s], nobj = objs_per_frame[s];
        size_t live = nframes * (8 + 32 + 8) + nframes * nobj * (8 + 48);
        struct llcoro_heap_config cfg = {2 * live + 4096, map, conv, 0, 0};
        struct llcoro_heap *h = llcoro_heap_create(&cfg);
        CHECK(h != NULL);
        void *root = calloc(1, 32);
        void *sp = root;
        for (size_t i = 0; i < nframes; i++) {
            struct llcoro_sp_ptr r = llcoro_heap_alloc_frame(h, sp, 32);
            put(r.ptr, 0, r.sp);
            put(r.ptr, 8, &key);
            sp = r.ptr;
            for (size_t j = 0; j < nobj; j++) { /* {next | 40 raw bytes} */
                r = llcoro_heap_alloc(h, sp, 48, 1);
                sp = r.sp;
                ((void **)r.ptr)[0] = get(sp, 16);
                memset((char *)r.ptr + 8, (int)j, 40);
                put(sp, 16, r.ptr);
            }
        }
        for (int k = 0; k < reps; k++) {
            sp = llcoro_heap_collect(h, sp);
            struct llcoro_gc_stats st;
            llcoro_heap_stats(h, &st);
            pauses[k] = st.last_pause_ns;
            CHECK_EQ(st.last_frames_copied, nframes);
            CHECK_EQ(st.last_objects_copied, nframes * nobj);
        }
        CHECK_EQ(llcoro_chain_depth(map, conv, sp), (long)nframes);
        struct llcoro_gc_stats st;
        llcoro_heap_stats(h, &st);
        qsort(pauses, (size_t)reps, sizeof *pauses, cmp_u64);
        printf("pause: %zu frames, %zu objects, %llu bytes copied per collection: min %.1f us, median "
               "%.1f us, max %.1f us (%d collections, %.2f GB/s at the median)\n",
               nframes, nframes * nobj, (unsigned long long)st.last_bytes_copied, (double)pauses[0] / 1e3,
               (double)pauses[reps / 2] / 1e3, (double)pauses[reps - 1] / 1e3, reps,
               (double)st.last_bytes_copied / (double)pauses[reps / 2]);
        llcoro_heap_destroy(h);
        free(root);
    }
    free(pauses);
    llcoro_sites_destroy(map);
    return 0;
}
