// bench/kxs/bench_common.hpp - what the three suspend/resume benchmarks share.
//
// Each benchmark runs one suspend function that suspends kIterations times with three unsigned
// ints (a, b, c), a heap-allocated std::string (s), the running checksum and the loop counter
// live across every suspend. Per iteration, before the suspend:
//     a += i;  b ^= a;  c = c * 31 + b;  s[i % 24] = 'a' + i % 26;
// and after it:
//     sum = sum * 31 + a + b + c + (unsigned char)s[(i * 7) % 24];
// reference_checksum() is the same computation without suspending.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>

namespace kxs_bench {

inline constexpr int kIterations = 10'000'000;
inline constexpr std::size_t kStringSize = 24;  // longer than libstdc++'s 15-char SSO buffer

inline std::uint64_t reference_checksum(int n) {
    unsigned a = 1, b = 2, c = 3;
    std::string s(kStringSize, 'x');
    std::uint64_t sum = 0;
    for (int i = 0; i < n; ++i) {
        a += static_cast<unsigned>(i);
        b ^= a;
        c = c * 31u + b;
        s[static_cast<unsigned>(i) % kStringSize] = static_cast<char>('a' + i % 26);
        sum = sum * 31u + a + b + c + static_cast<unsigned char>(s[static_cast<unsigned>(i) * 7u % kStringSize]);
    }
    return sum;
}

using Clock = std::chrono::steady_clock;

/// One line per program, the same format for all three:
///   <name>: checksum=<n> (ok|MISMATCH) suspends=<n> ns_per_suspend_resume=<x> state_bytes=<what>
inline int report(const char* name, std::uint64_t checksum, long suspends, Clock::duration elapsed,
                  const std::string& state) {
    const std::uint64_t expected = reference_checksum(kIterations);
    const double ns = std::chrono::duration<double, std::nano>(elapsed).count() / static_cast<double>(suspends);
    std::printf("%s: checksum=%llu %s suspends=%ld ns_per_suspend_resume=%.2f state_bytes=%s\n", name,
                static_cast<unsigned long long>(checksum), checksum == expected ? "ok" : "MISMATCH", suspends, ns,
                state.c_str());
    return checksum == expected ? 0 : 1;
}

}  // namespace kxs_bench
