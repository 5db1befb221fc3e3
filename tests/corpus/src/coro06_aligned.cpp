// Over-aligned coroutine frames and custom allocation: alignas(32) locals
// and promise members, promise-provided operator new/delete (sized and
// with the coroutine's arguments), get_return_object_on_allocation_failure,
// vector-typed locals that live across suspension points.
// (Whether the frame really is 32-byte aligned, and whether the allocation is
// elided at -O2, differs between compilers; only the emitted IR matters here.)
#include <coroutine>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <utility>

typedef float v8f __attribute__((vector_size(32)));

static std::size_t bytes_allocated = 0;
static int frees = 0;

struct alignas(32) wide_state {
    double lanes[4];
};

struct aligned_task {
    struct promise_type {
        alignas(32) wide_state state{};
        long result = 0;

        static void *operator new(std::size_t n) noexcept {
            bytes_allocated += n;
            return std::malloc(n);
        }
        static void operator delete(void *p, std::size_t) noexcept {
            ++frees;
            std::free(p);
        }
        static aligned_task get_return_object_on_allocation_failure() noexcept { return aligned_task{nullptr}; }

        aligned_task get_return_object() {
            return aligned_task{std::coroutine_handle<promise_type>::from_promise(*this)};
        }
        std::suspend_always initial_suspend() noexcept { return {}; }
        std::suspend_always final_suspend() noexcept { return {}; }
        void return_value(long v) noexcept { result = v; }
        void unhandled_exception() noexcept { std::abort(); }
    };

    std::coroutine_handle<promise_type> h;
    explicit aligned_task(std::coroutine_handle<promise_type> h) : h(h) {}
    explicit aligned_task(std::nullptr_t) : h(nullptr) {}
    aligned_task(aligned_task &&o) noexcept : h(std::exchange(o.h, {})) {}
    ~aligned_task() {
        if (h)
            h.destroy();
    }
    long run() {
        if (!h)
            return -1;
        while (!h.done())
            h.resume();
        return h.promise().result;
    }
};

// Promise operator new receiving the coroutine's own arguments.
struct arena_task {
    struct promise_type {
        static void *operator new(std::size_t n, char *arena, std::size_t cap, int) noexcept {
            return n <= cap ? arena : nullptr;
        }
        static void operator delete(void *) noexcept { ++frees; }
        static arena_task get_return_object_on_allocation_failure() noexcept { return arena_task{nullptr}; }
        arena_task get_return_object() {
            return arena_task{std::coroutine_handle<promise_type>::from_promise(*this)};
        }
        int value = 0;
        std::suspend_always initial_suspend() noexcept { return {}; }
        std::suspend_always final_suspend() noexcept { return {}; }
        void return_value(int v) noexcept { value = v; }
        void unhandled_exception() noexcept { std::abort(); }
    };
    std::coroutine_handle<promise_type> h;
    explicit arena_task(std::coroutine_handle<promise_type> h) : h(h) {}
    explicit arena_task(std::nullptr_t) : h(nullptr) {}
    arena_task(arena_task &&o) noexcept : h(std::exchange(o.h, {})) {}
    ~arena_task() {
        if (h)
            h.destroy();
    }
    int run() {
        if (!h)
            return -1;
        while (!h.done())
            h.resume();
        return h.promise().value;
    }
};

static aligned_task vector_work(int n) {
    alignas(32) float buf[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    v8f acc = {0, 0, 0, 0, 0, 0, 0, 0};
    alignas(32) wide_state local{{0.5, 1.5, 2.5, 3.5}};
    for (int i = 0; i < n; ++i) {
        v8f x;
        __builtin_memcpy(&x, buf, sizeof x);
        acc += x * (float)i;
        co_await std::suspend_always{};
        local.lanes[i % 4] += acc[i % 8];
        if (reinterpret_cast<std::uintptr_t>(&local) % 32 != 0)
            co_return -1000;
    }
    float s = 0;
    for (int i = 0; i < 8; ++i)
        s += acc[i];
    co_return (long)s + (long)local.lanes[3];
}

static aligned_task no_suspend_locals(long k) {
    alignas(64) char page[64] = {};
    page[63] = (char)k;
    co_await std::suspend_always{};
    co_return page[63] + (long)(reinterpret_cast<std::uintptr_t>(page) % 64);
}

static arena_task in_arena(char *arena, std::size_t cap, int v) {
    co_await std::suspend_always{};
    co_return v + (int)cap;
}

int main() {
    long a = vector_work(6).run();
    long b = no_suspend_locals(9).run();
    alignas(std::max_align_t) static char arena[4096];
    int c = in_arena(arena, sizeof arena, 1).run();
    int d = in_arena(arena, 8, 2).run();  // allocation failure path
    std::printf("%ld %ld %d %d %d %d\n", a, b, c, d, bytes_allocated > 0, frees);
    return 0;
}
