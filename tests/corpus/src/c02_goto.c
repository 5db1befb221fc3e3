// Labels-as-values (computed goto -> indirectbr / blockaddress), plain goto,
// switch fall-through and a tiny threaded bytecode interpreter.
#include <stdio.h>
#include <stddef.h>

enum op { OP_PUSH, OP_ADD, OP_SUB, OP_MUL, OP_DUP, OP_JNZ, OP_DEC, OP_PRINT, OP_HALT };

static long run_threaded(const int *code) {
    static void *const dispatch[] = {
        &&do_push, &&do_add, &&do_sub, &&do_mul, &&do_dup,
        &&do_jnz,  &&do_dec, &&do_print, &&do_halt,
    };
    long stack[64];
    int sp = 0;
    const int *pc = code;
#define NEXT goto *dispatch[*pc++]
    NEXT;
do_push:
    stack[sp++] = *pc++;
    NEXT;
do_add:
    sp--;
    stack[sp - 1] += stack[sp];
    NEXT;
do_sub:
    sp--;
    stack[sp - 1] -= stack[sp];
    NEXT;
do_mul:
    sp--;
    stack[sp - 1] *= stack[sp];
    NEXT;
do_dup:
    stack[sp] = stack[sp - 1];
    sp++;
    NEXT;
do_jnz: {
    int target = *pc++;
    if (stack[sp - 1] != 0)
        pc = code + target;
    NEXT;
}
do_dec:
    stack[sp - 1]--;
    NEXT;
do_print:
    printf("top=%ld\n", stack[sp - 1]);
    NEXT;
do_halt:
    return sp ? stack[sp - 1] : 0;
#undef NEXT
}

static long run_switch(const int *code) {
    long stack[64];
    int sp = 0;
    const int *pc = code;
    for (;;) {
        switch (*pc++) {
        case OP_PUSH: stack[sp++] = *pc++; break;
        case OP_ADD: sp--; stack[sp - 1] += stack[sp]; break;
        case OP_SUB: sp--; stack[sp - 1] -= stack[sp]; break;
        case OP_MUL: sp--; stack[sp - 1] *= stack[sp]; break;
        case OP_DUP: stack[sp] = stack[sp - 1]; sp++; break;
        case OP_JNZ: {
            int target = *pc++;
            if (stack[sp - 1] != 0)
                pc = code + target;
            break;
        }
        case OP_DEC: stack[sp - 1]--; break;
        case OP_PRINT: printf("top=%ld\n", stack[sp - 1]); break;
        case OP_HALT: return sp ? stack[sp - 1] : 0;
        default: return -1;
        }
    }
}

// A label address stored in a table and selected by data, plus a
// label address escaping into a local variable.
static int state_machine(const char *s) {
    void *state = &&start;
    int count = 0;
    goto *state;
start:
    if (!*s)
        goto done;
    state = (*s == 'a') ? &&saw_a : &&start_next;
    goto *state;
start_next:
    s++;
    goto start;
saw_a:
    s++;
    if (*s == 'b') {
        count++;
        s++;
    }
    goto start;
done:
    return count;
}

// Duff's device: switch jumping into the middle of a loop.
static void duff_copy(char *to, const char *from, size_t count) {
    if (!count)
        return;
    size_t n = (count + 7) / 8;
    switch (count % 8) {
    case 0: do { *to++ = *from++;
    case 7:      *to++ = *from++;
    case 6:      *to++ = *from++;
    case 5:      *to++ = *from++;
    case 4:      *to++ = *from++;
    case 3:      *to++ = *from++;
    case 2:      *to++ = *from++;
    case 1:      *to++ = *from++;
            } while (--n > 0);
    }
}

static int cleanup_gotos(int n) {
    int rc = -1;
    int *a = NULL;
    if (n < 0)
        goto out;
    static int storage[16];
    a = storage;
    for (int i = 0; i < 16; i++) {
        a[i] = i * n;
        if (a[i] > 100)
            goto fail;
    }
    rc = a[15];
    goto out;
fail:
    rc = -2;
out:
    return rc;
}

int main(void) {
    // push 5; loop: dup print dec jnz loop; halt  (computes countdown)
    static const int prog[] = {OP_PUSH, 5, OP_PRINT, OP_DEC, OP_JNZ, 2,
                               OP_PUSH, 6, OP_PUSH, 7, OP_MUL, OP_HALT};
    long a = run_threaded(prog);
    long b = run_switch(prog);
    char buf[32] = {0};
    duff_copy(buf, "hello, computed goto!", 21);
    printf("%ld %ld %d %s %d %d\n", a, b, state_machine("xabyabab"), buf,
           cleanup_gotos(3), cleanup_gotos(9));
    return a == b ? 0 : 1;
}
