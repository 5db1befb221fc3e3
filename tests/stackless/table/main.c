/* Reads the frame descriptor table llcoro emits for foo.ll (docs/stackless.md, version 1) while
 * @foo is suspended in a call to bar, and checks the call site it describes. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* The format and the section map come from the runtime (runtime/stackless). */
#include "llcoro/stackless.h"

extern const struct llcoro_frame_table __start_llcoro_frames[];
extern const struct llcoro_frame_table __stop_llcoro_frames[];

struct ret { void *sp; int value; };
struct ret foo(void *sp, int arg);

static const struct llcoro_call_site *lookup(const void *key) {
    return llcoro_sites_lookup(llcoro_sites_default(), key);
}

/* The callee, in the stackless convention: sp is foo's frame, suspended at its statepoint. */
struct ret bar(void *sp, int arg) {
    const struct llcoro_frame_table *t = __start_llcoro_frames;
    printf("tables=%d magic=%s version=%u entry_size=%u count=%u\n", (int)(__stop_llcoro_frames - t),
           t->magic == 0x5446434cu ? "LCFT" : "bad", t->version, t->entry_size, t->count);
    const void *key;
    memcpy(&key, (char *)sp + 16, sizeof key);
    const struct llcoro_call_site *s = lookup(key);
    if (!s) {
        printf("no call site for the key in the frame\n");
        return (struct ret){sp, 0};
    }
    printf("site: function=%s reentry=%s ra=%d spill=%d spill_size=%u frame_size=%d gc_slots=%u:",
           s->function == (const void *)foo ? "foo" : "other", s->reentry ? "set" : "null", s->ra_offset,
           s->spill_offset, s->spill_size, s->frame_size, s->gc_slot_count);
    for (uint32_t i = 0; i < s->gc_slot_count; i++) printf(" %d", s->gc_slots[i]);
    printf("\n");
    /* The GC slot at 8 holds the object @foo saved; a moving GC would update it here. */
    int64_t *obj;
    memcpy(&obj, (char *)sp + 8, sizeof obj);
    printf("object in slot 8 holds %lld\n", (long long)*obj);
    return (struct ret){sp, arg * 2};
}

int main(void) {
    static char root[64];
    struct ret r = foo(root, 5);
    printf("result=%d same_sp=%d\n", r.value, r.sp == root);
    return 0;
}

/* EXPECT:
spill=4
tables=1 magic=LCFT version=1 entry_size=56 count=1
site: function=foo reentry=set ra=16 spill=32 spill_size=4 frame_size=-1 gc_slots=2: 0 8
object in slot 8 holds 100
result=211 same_sp=1
*/
