// kxs: locals aligned beyond malloc's 16 bytes live across suspends. An alignas(32) struct of
// doubles, an alignas(64) buffer and a 32-byte vector are kept in the spill frame, which must
// then come from aligned_alloc (before, it came from malloc and was 16-byte aligned only: the
// addresses printed were off by 16, and this -mavx2 build crashed on an aligned AVX move).
// The frame is freed by ContinuationImpl's std::free on completion (valgrind: no leak, no error).
// CXXFLAGS: -mavx2
// VALGRIND
#include "kotlinx/coroutines/dsl/Suspend.hpp"

#include <cstdint>
#include <cstdio>

using namespace kotlinx::coroutines;

typedef double v4d __attribute__((vector_size(32)));

struct alignas(32) Quad {
    double d[4];
};

template <class T>
static int mis(const T* p, unsigned a) {
    return static_cast<int>(reinterpret_cast<std::uintptr_t>(p) % a);
}

// Reads through a pointer the optimizer cannot follow, so the locals stay in memory.
[[gnu::noinline]] static double total(const Quad* q, const v4d* v) {
    return q->d[0] + q->d[3] + (*v)[0] + (*v)[3];
}

class Aligned : public ContinuationImpl {
    int rounds_;

public:
    Aligned(Continuation* completion, int rounds) : ContinuationImpl(completion), rounds_(rounds) {}

    void* invoke_suspend(Result<void*> result) override {
        coroutine_begin(this);
        Quad q{{1, 2, 3, 4}};
        alignas(64) unsigned char buf[64] = {7};
        v4d v = {0.5, 1.5, 2.5, 3.5};
        for (int i = 0; i < rounds_; ++i) {
            coroutine_yield(this, yield_now(this));
            v = v * 2.0;                              // aligned vector arithmetic after a resume
            q.d[i % 4] += 1;
            std::printf("round %d: mis32=%d mis64=%d mis32=%d total=%g buf=%d\n", i, mis(&q, 32), mis(buf, 64),
                        mis(&v, 32), total(&q, &v), buf[0]);
        }
        coroutine_end(this);
    }
};

int main() {
    EventLoop loop;
    ResultHolder a, b;
    loop.launch<Aligned>(&a, 3);
    loop.launch<Aligned>(&b, 2);
    loop.run();
    std::printf("done %d %d\n", a.done() ? 1 : 0, b.done() ? 1 : 0);
    return 0;
}

// EXPECT:
// round 0: mis32=0 mis64=0 mis32=0 total=14 buf=7
// round 0: mis32=0 mis64=0 mis32=0 total=14 buf=7
// round 1: mis32=0 mis64=0 mis32=0 total=22 buf=7
// round 1: mis32=0 mis64=0 mis32=0 total=22 buf=7
// round 2: mis32=0 mis64=0 mis32=0 total=38 buf=7
// done 1 1
