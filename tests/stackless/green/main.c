/* A green-thread scheduler for threads.ll: round-robin over threads that are chains of two heap
 * frames (@worker calling @step), under the runtime's moving collector.
 *
 * - A thread starts with a native call to @worker on its own root frame (outside the heap). When
 *   @step yields (green_yield, called through a statepoint), green_yield records @step's frame as
 *   the thread's continuation and longjmps back to the scheduler: the native stack of the thread
 *   is gone, and everything it needs is in its heap frames.
 * - The continuations of suspended threads are GC roots (llcoro_heap_add_root). Between slices
 *   the scheduler collects, and inside slices every allocation may (stress mode: does) collect,
 *   so the suspended chains move while they wait.
 * - Resuming a thread: the re-entry function the frame descriptor table gives for the key in its
 *   continuation's return-address slot, with a resume value the scheduler chooses (3y + 1 for a
 *   yield of y). When a re-entry returns {sp, value} with sp a frame of the thread (not its root
 *   frame), that frame is suspended at its call to the frame that returned, and the scheduler
 *   continues it through its own re-entry function with the value (a trampoline), until the root
 *   frame is reached: the thread is done.
 * - A fork: at the first yield of thread 1 in step 2, the scheduler copies its two suspended frames
 *   into new heap frames linked to a fourth root frame (the list @worker keeps is shared, never
 *   modified). The captured chain is therefore continued twice: as thread 1 with 3y + 1, and as
 *   thread 3 with 3y + 2.
 *
 * Each thread's result is checked against a plain C computation of @worker and @step. It all
 * runs twice: with a small heap (collections when it is full, and between slices) and in stress
 * mode (a collection at every allocation). */
#include <inttypes.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "llcoro/stackless.h"

struct ret {
    void *sp;
    int64_t value;
};
typedef struct ret (*reentry_fn)(void *frame, void *result);
struct ret worker(void *sp, int64_t id, int64_t steps);

static const struct llcoro_frame_conv conv = LLCORO_FRAME_CONV_DEFAULT;

enum { MAX_THREADS = 4, FORKED_THREAD = 1, FORK_STEP = 2 }; /* the fork becomes thread 3 */

struct thread {
    void *root[4]; /* the root frame: null key, outside the heap */
    void *cont;    /* the innermost frame while suspended (a GC root), else null */
    int64_t id, steps;
    int started, done;
    int64_t yielded, result;
    int64_t first_resume_bonus; /* a forked thread's first resume adds it */
    int slices, hops;
};

static struct thread threads[MAX_THREADS];
static int n_threads;
static struct thread *current;
static jmp_buf scheduler;
static char trace[512];
static size_t trace_len;
static struct llcoro_heap *heap;

static int64_t resume_value(struct thread *t) {
    int64_t v = 3 * t->yielded + 1 + t->first_resume_bonus;
    t->first_resume_bonus = 0;
    return v;
}

/* ---- the expected results: @step and @worker in plain C ---- */

static uint64_t expected_result(int64_t id, int64_t steps, int64_t fork_step, int64_t bonus) {
    uint64_t acc = (uint64_t)id, r[64];
    for (int64_t i = 0; i < steps; i++) {
        uint64_t y = (uint64_t)(id * 100 + i);
        uint64_t v = 3 * y + 1 + (i == fork_step ? (uint64_t)bonus : 0);
        r[i] = v * 7 + (uint64_t)id * 13 + (uint64_t)i + ((uint32_t)i ^ 85u);
        acc = acc * 31 + r[i] + (uint64_t)id * 977;
    }
    uint64_t h = 0;
    for (int64_t i = steps - 1; i >= 0; i--) h = (h * 1000003) ^ r[i];
    return acc ^ h;
}

/* ---- called from threads.ll ---- */

struct ret green_yield(void *sp, int64_t value) {
    current->cont = sp;
    current->yielded = value;
    trace_len += (size_t)snprintf(trace + trace_len, sizeof trace - trace_len, " %d:%" PRId64,
                                  (int)(current - threads), value);
    longjmp(scheduler, 1);
}

void green_broken(int64_t id, int64_t i) {
    printf("thread with id %" PRId64 ": an object is broken in step %" PRId64 "\n", id, i);
    fflush(stdout);
    exit(1);
}

/* ---- the scheduler ---- */

static const void *key_of(const void *frame) {
    const void *key;
    memcpy(&key, (const char *)frame + conv.ra_offset, sizeof key);
    return key;
}

static struct ret reenter(void *frame, int64_t value) {
    const struct llcoro_call_site *s = llcoro_sites_lookup(llcoro_sites_default(), key_of(frame));
    if (s == NULL || s->reentry == NULL) {
        printf("no re-entry function for a frame\n");
        exit(1);
    }
    int64_t result = value;
    return ((reentry_fn)s->reentry)(frame, &result);
}

/* Runs `t` until it yields or ends. Nothing of this function's own state is used after the
 * longjmp back to the setjmp: it returns at once. */
static void run_slice(struct thread *t) {
    current = t;
    t->slices++;
    if (setjmp(scheduler) != 0) return;
    struct ret r;
    if (!t->started) {
        t->started = 1;
        r = worker(t->root, t->id, t->steps);
    } else {
        void *frame = t->cont;
        t->cont = NULL; /* running: its frames are reached from the sp of each allocation */
        r = reenter(frame, resume_value(t));
    }
    while (r.sp != (void *)t->root) {
        t->hops++;
        r = reenter(r.sp, r.value);
    }
    t->done = 1;
    t->result = r.value;
}

static void *get(const void *base, int off) {
    void *p;
    memcpy(&p, (const char *)base + off, sizeof p);
    return p;
}
static void put(void *base, int off, void *v) { memcpy((char *)base + off, &v, sizeof v); }

/* Forks the suspended thread `from` into a new thread: its two frames are copied into new heap
 * frames, the copy of @step's frame linked to the copy of @worker's, and that one to the new
 * thread's root frame. Each allocation may collect, so the first copy is kept in a root while the
 * second is allocated, and the originals are read (from `from->cont`, a root) only after that. */
static void fork_thread(struct thread *from) {
    struct thread *to = &threads[n_threads++];
    to->id = from->id;
    to->steps = from->steps;
    to->started = 1;
    to->yielded = from->yielded;
    to->first_resume_bonus = 1;
    void *outer_copy = NULL;
    llcoro_heap_add_root(heap, &outer_copy);
    size_t outer_size = llcoro_cell_size(get(from->cont, conv.link_offset));
    size_t inner_size = llcoro_cell_size(from->cont);
    outer_copy = llcoro_heap_alloc_frame(heap, NULL, outer_size).ptr;
    to->cont = llcoro_heap_alloc_frame(heap, NULL, inner_size).ptr;
    /* No allocation from here on: every pointer below stays where it is. */
    void *inner = from->cont, *outer = get(inner, conv.link_offset);
    memcpy(outer_copy, outer, outer_size);
    memcpy(to->cont, inner, inner_size);
    put(to->cont, conv.link_offset, outer_copy);
    put(outer_copy, conv.link_offset, to->root);
    llcoro_heap_remove_root(heap, &outer_copy);
}

struct stats {
    int between, checked, moved, depth_ok;
};

static int run(const char *name, size_t semispace, int stress) {
    struct llcoro_heap_config cfg = {semispace, NULL, conv, 1, stress};
    heap = llcoro_heap_create(&cfg);
    if (heap == NULL) return 1;
    llcoro_set_current_heap(heap);
    memset(threads, 0, sizeof threads);
    trace_len = 0;
    trace[0] = 0;
    const int64_t steps[] = {4, 5, 3};
    n_threads = 3;
    for (int i = 0; i < n_threads; i++) {
        threads[i].id = i + 1;
        threads[i].steps = steps[i];
    }
    for (int i = 0; i < MAX_THREADS; i++) llcoro_heap_add_root(heap, &threads[i].cont);

    struct stats s = {0, 0, 0, 1};
    int forked = 0, running = 1;
    while (running) {
        running = 0;
        for (int i = 0; i < n_threads; i++) {
            struct thread *t = &threads[i];
            if (t->done) continue;
            run_slice(t);
            if (!t->done) {
                running = 1;
                if (llcoro_chain_depth(llcoro_sites_default(), conv, t->cont) != 2) s.depth_ok = 0;
            }
            if (!forked && i == FORKED_THREAD && !t->done && t->yielded == t->id * 100 + FORK_STEP) {
                fork_thread(t);
                forked = 1;
            }
        }
        /* A collection between rounds, with every thread suspended: only the roots hold them. */
        void *before[MAX_THREADS];
        for (int k = 0; k < n_threads; k++) before[k] = threads[k].cont;
        llcoro_heap_collect(heap, NULL);
        s.between++;
        for (int k = 0; k < n_threads; k++) {
            if (before[k] == NULL) continue;
            s.checked++;
            s.moved += threads[k].cont != before[k] && llcoro_heap_contains(heap, threads[k].cont);
        }
    }

    struct llcoro_gc_stats st;
    llcoro_heap_stats(heap, &st);
    printf("%s:\n  yields:%s\n", name, trace);
    uint64_t allocs = 0;
    for (int i = 0; i < n_threads; i++) {
        struct thread *t = &threads[i];
        int fork = i == MAX_THREADS - 1;
        uint64_t want = expected_result(t->id, t->steps, fork ? FORK_STEP : -1, fork ? 1 : 0);
        printf("  thread %d (id %" PRId64 "%s): result %" PRIu64 " expected %" PRIu64
               ", %d slices, %d trampoline hops\n",
               i, t->id, fork ? ", forked from thread 1 in its step 2" : "", (uint64_t)t->result, want,
               t->slices, t->hops);
        /* Each step: a @step frame, two objects, scratch space and a list node. A thread that is
           not a fork also allocates its @worker frame. The fork starts with the two frame copies
           and the rest of step 2 (an object, the scratch space and a list node), then its later
           steps. */
        if (!fork)
            allocs += 1 + 5 * (uint64_t)t->steps;
        else
            allocs += 2 + 3 + 5 * (uint64_t)(t->steps - FORK_STEP - 1);
    }
    uint64_t between = (uint64_t)s.between;
    printf("  allocations %s; collections %s\n", st.allocations == allocs ? "as counted" : "WRONG",
           stress ? (st.collections == st.allocations + between ? "one per allocation and per round" : "WRONG")
                  : (st.collections > between ? "per round, and when the heap was full" : "WRONG"));
    printf("  suspended chains 2 frames deep: %s; moved by every collection between rounds: %s\n",
           s.depth_ok ? "yes" : "no", s.checked > 0 && s.moved == s.checked ? "yes" : "no");
    for (int i = 0; i < MAX_THREADS; i++) llcoro_heap_remove_root(heap, &threads[i].cont);
    llcoro_set_current_heap(NULL);
    llcoro_heap_destroy(heap);
    heap = NULL;
    return 0;
}

int main(void) {
    if (llcoro_sites_default_status() != LLCORO_OK) {
        printf("bad frame table: %s\n", llcoro_status_string(llcoro_sites_default_status()));
        return 1;
    }
    if (run("small heap", 2560, 0) != 0 || run("stress", 16 * 1024, 1) != 0) return 1;
    return 0;
}

/* EXPECT:
small heap:
  yields: 0:100 1:200 2:300 0:101 1:201 2:301 0:102 1:202 2:302 3:203 0:103 1:203 3:204 1:204
  thread 0 (id 1): result 3072922009343030255 expected 3072922009343030255, 5 slices, 4 trampoline hops
  thread 1 (id 2): result 8945817090800926446 expected 8945817090800926446, 6 slices, 5 trampoline hops
  thread 2 (id 3): result 6477032433592782 expected 6477032433592782, 4 slices, 3 trampoline hops
  thread 3 (id 2, forked from thread 1 in its step 2): result 8945830088515115586 expected 8945830088515115586, 3 slices, 3 trampoline hops
  allocations as counted; collections per round, and when the heap was full
  suspended chains 2 frames deep: yes; moved by every collection between rounds: yes
stress:
  yields: 0:100 1:200 2:300 0:101 1:201 2:301 0:102 1:202 2:302 3:203 0:103 1:203 3:204 1:204
  thread 0 (id 1): result 3072922009343030255 expected 3072922009343030255, 5 slices, 4 trampoline hops
  thread 1 (id 2): result 8945817090800926446 expected 8945817090800926446, 6 slices, 5 trampoline hops
  thread 2 (id 3): result 6477032433592782 expected 6477032433592782, 4 slices, 3 trampoline hops
  thread 3 (id 2, forked from thread 1 in its step 2): result 8945830088515115586 expected 8945830088515115586, 3 slices, 3 trampoline hops
  allocations as counted; collections one per allocation and per round
  suspended chains 2 frames deep: yes; moved by every collection between rounds: yes
*/
