// bench/kxs/auto_spill.cpp - (a) kxs: the same suspend function with plain locals; the llcoro kxs
// transform moves what lives across the suspend into a malloc'ed spill frame. Must be built
// through the transform (clang -emit-llvm, llcoro, then -O2), e.g. with the `llcoro cc`
// launcher; without it the link fails on __kxs_suspend_point.
#include "kotlinx/coroutines/dsl/Suspend.hpp"

#include <malloc.h>

#include <cstdint>
#include <string>

#include "bench_common.hpp"

using namespace kotlinx::coroutines;
using namespace kxs_bench;

// Suspends every time; the driver in main resumes.
static inline void* suspend_here(Continuation*) noexcept { return COROUTINE_SUSPENDED; }

class AutoSpill final : public ContinuationImpl {
    int n_;

public:
    AutoSpill(Continuation* completion, int n) : ContinuationImpl(completion), n_(n) {}

    void* invoke_suspend(Result<void*> result) override {
        coroutine_begin(this);
        unsigned a = 1, b = 2, c = 3;
        std::string s(kStringSize, 'x');
        std::uint64_t sum = 0;
        for (int i = 0; i < n_; ++i) {
            a += static_cast<unsigned>(i);
            b ^= a;
            c = c * 31u + b;
            s[static_cast<unsigned>(i) % kStringSize] = static_cast<char>('a' + i % 26);
            coroutine_yield(this, suspend_here(this));
            sum = sum * 31u + a + b + c + static_cast<unsigned char>(s[static_cast<unsigned>(i) * 7u % kStringSize]);
        }
        coroutine_return(this, reinterpret_cast<void*>(static_cast<std::uintptr_t>(sum)));
    }
};

int main() {
    ResultHolder done;
    AutoSpill fn(&done, kIterations);
    long suspends = 0;
    const auto t0 = Clock::now();
    start_coroutine(fn);
    // The spill frame exists while the function is suspended; malloc_usable_size is what the
    // allocator gave (at least what the transform asked for).
    const std::size_t frame = fn._kxs_frame ? malloc_usable_size(fn._kxs_frame) : 0;
    while (!done.done()) {
        ++suspends;
        fn.resume_with(Result<void*>::success(nullptr));
    }
    const auto t1 = Clock::now();
    const auto checksum = static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(done.result().get_or_throw()));
    return report("auto_spill", checksum, suspends, t1 - t0,
                  "sizeof(AutoSpill)=" + std::to_string(sizeof(AutoSpill)) +
                      " + spill frame malloc_usable_size=" + std::to_string(frame) + " (+ the string's heap buffer)");
}
