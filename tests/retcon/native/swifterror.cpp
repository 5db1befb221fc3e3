// Drives swifterror.ll: the ramp and each continuation are swiftcc with a swifterror slot; the
// error a call leaves in it is what the coroutine last stored there (null on entry, as LLVM).
#include <cstdint>
#include <cstdio>
#include <cstdlib>

struct Step {
    void *next;
    int value;
};
using Continuation = __attribute__((swiftcall)) Step (*)(void *, bool, __attribute__((swift_context)) void *, __attribute__((swift_error_result)) void **);

extern "C" {
__attribute__((swiftcall)) Step count(void *buffer, int n, __attribute__((swift_context)) void *ctx, __attribute__((swift_error_result)) void **err);
Step tally(void *buffer, int n);
void *allocate(int size) { return std::malloc(size); }
void deallocate(void *p) { std::free(p); }
__attribute__((swiftcall)) void maybe_fail(int i, __attribute__((swift_context)) void *, __attribute__((swift_error_result)) void **err) {
    *err = i % 2 ? reinterpret_cast<void *>(static_cast<intptr_t>(100 + i)) : nullptr;
}
void log_error(int i, void *e) { std::printf("step %d: error %ld\n", i, static_cast<long>(reinterpret_cast<intptr_t>(e))); }
}

static long show(void *e) { return static_cast<long>(reinterpret_cast<intptr_t>(e)); }

int main() {
    alignas(8) char buffer[8];
    void *err = reinterpret_cast<void *>(7);
    Step s = count(buffer, 1, nullptr, &err);
    std::printf("ramp yields %d, caller sees error %ld\n", s.value, show(err));
    for (int k = 0; k < 3; ++k) {
        err = reinterpret_cast<void *>(5);
        s = reinterpret_cast<Continuation>(s.next)(buffer, false, nullptr, &err);
        std::printf("resume yields %d, caller sees error %ld\n", s.value, show(err));
    }
    err = nullptr;
    s = reinterpret_cast<Continuation>(s.next)(buffer, true, nullptr, &err);
    std::printf("abort: next %s, caller sees error %ld\n", s.next ? "set" : "null", show(err));
    // The alloca's error is the coroutine's own: the previous step's, read at the next.
    alignas(8) char buffer2[16];
    using Plain = Step (*)(void *, bool);
    s = tally(buffer2, 1);
    for (int k = 0; k < 2; ++k)
        s = reinterpret_cast<Plain>(s.next)(buffer2, false);
    s = reinterpret_cast<Plain>(s.next)(buffer2, true);
    std::printf("tally ends: next %s\n", s.next ? "set" : "null");
    return 0;
}
