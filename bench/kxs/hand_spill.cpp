// bench/kxs/hand_spill.cpp - (b) the seed's style, no transform: the state machine is written in
// C++ with labels as values (`goto *_label` dispatch on entry), and every variable live across
// the suspend is kept by hand in a field of the continuation. Uses the kxs runtime
// (ContinuationImpl and its resume loop) but not the markers, so it runs natively:
//     clang++ -std=c++20 -O2 -Wno-gnu-label-as-value -I ../../cpp/include hand_spill.cpp
#include "kotlinx/coroutines/Continuation.hpp"

#include <cstdint>
#include <string>

#include "bench_common.hpp"

using namespace kotlinx::coroutines;
using namespace kxs_bench;

// Suspends every time; the driver in main resumes.
static inline void* suspend_here(Continuation*) noexcept { return COROUTINE_SUSPENDED; }

class HandSpill final : public ContinuationImpl {
    int n_;
    // Hand-spilled state.
    int i_ = 0;
    unsigned a_ = 0, b_ = 0, c_ = 0;
    std::string s_;
    std::uint64_t sum_ = 0;

public:
    HandSpill(Continuation* completion, int n) : ContinuationImpl(completion), n_(n) {}

    void* invoke_suspend(Result<void*> result) override {
        if (_label) goto *_label;
        a_ = 1;
        b_ = 2;
        c_ = 3;
        s_.assign(kStringSize, 'x');
        sum_ = 0;
        for (i_ = 0; i_ < n_; ++i_) {
            a_ += static_cast<unsigned>(i_);
            b_ ^= a_;
            c_ = c_ * 31u + b_;
            s_[static_cast<unsigned>(i_) % kStringSize] = static_cast<char>('a' + i_ % 26);
            if (intrinsics::is_coroutine_suspended(suspend_here(this))) {
                _label = &&resume_0;
                return COROUTINE_SUSPENDED;
            }
        resume_0:
            (void)result.get_or_throw();
            sum_ = sum_ * 31u + a_ + b_ + c_ +
                   static_cast<unsigned char>(s_[static_cast<unsigned>(i_) * 7u % kStringSize]);
        }
        _label = nullptr;
        return reinterpret_cast<void*>(static_cast<std::uintptr_t>(sum_));
    }
};

int main() {
    ResultHolder done;
    HandSpill fn(&done, kIterations);
    long suspends = 0;
    const auto t0 = Clock::now();
    start_coroutine(fn);
    while (!done.done()) {
        ++suspends;
        fn.resume_with(Result<void*>::success(nullptr));
    }
    const auto t1 = Clock::now();
    const auto checksum = static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(done.result().get_or_throw()));
    return report("hand_spill", checksum, suspends, t1 - t0,
                  "sizeof(HandSpill)=" + std::to_string(sizeof(HandSpill)) + " (+ the string's heap buffer)");
}
