// bench/kxs/cxx20.cpp - (c) the same function as a C++20 coroutine (std::coroutine_handle),
// suspending with co_await std::suspend_always{} and resumed by main. Runs natively:
//     clang++ -std=c++20 -O2 cxx20.cpp
#include <coroutine>
#include <cstdint>
#include <exception>
#include <new>
#include <string>

#include "bench_common.hpp"

using namespace kxs_bench;

struct Task {
    struct promise_type {
        std::uint64_t value = 0;
        static inline std::size_t frame_bytes = 0;  // what the coroutine frame allocation asked for

        static void* operator new(std::size_t n) {
            frame_bytes = n;
            return ::operator new(n);
        }
        static void operator delete(void* p, std::size_t n) noexcept { ::operator delete(p, n); }

        Task get_return_object() { return Task{std::coroutine_handle<promise_type>::from_promise(*this)}; }
        std::suspend_always initial_suspend() noexcept { return {}; }
        std::suspend_always final_suspend() noexcept { return {}; }
        void return_value(std::uint64_t v) noexcept { value = v; }
        void unhandled_exception() noexcept { std::terminate(); }
    };

    std::coroutine_handle<promise_type> handle;

    explicit Task(std::coroutine_handle<promise_type> h) : handle(h) {}
    Task(const Task&) = delete;
    Task& operator=(const Task&) = delete;
    ~Task() {
        if (handle) handle.destroy();
    }
};

// noinline: keep the frame on the heap (no allocation elision into main), as for the other two.
__attribute__((noinline)) Task bench(int n) {
    unsigned a = 1, b = 2, c = 3;
    std::string s(kStringSize, 'x');
    std::uint64_t sum = 0;
    for (int i = 0; i < n; ++i) {
        a += static_cast<unsigned>(i);
        b ^= a;
        c = c * 31u + b;
        s[static_cast<unsigned>(i) % kStringSize] = static_cast<char>('a' + i % 26);
        co_await std::suspend_always{};
        sum = sum * 31u + a + b + c + static_cast<unsigned char>(s[static_cast<unsigned>(i) * 7u % kStringSize]);
    }
    co_return sum;
}

int main() {
    long suspends = 0;
    const auto t0 = Clock::now();
    Task task = bench(kIterations);
    task.handle.resume();  // from the initial suspend to the first co_await
    while (!task.handle.done()) {
        ++suspends;
        task.handle.resume();
    }
    const auto t1 = Clock::now();
    return report("cxx20", task.handle.promise().value, suspends, t1 - t0,
                  "coroutine frame=" + std::to_string(Task::promise_type::frame_bytes) +
                      " (+ the string's heap buffer)");
}
