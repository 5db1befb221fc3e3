// Exceptions inside coroutines: throws before the first suspension, after
// suspensions, caught inside the coroutine around co_await, propagated via
// unhandled_exception and rethrown to the awaiter, throwing await_resume,
// RAII objects in the frame destroyed during unwinding, and a promise whose
// unhandled_exception rethrows directly.
#include <coroutine>
#include <cstdio>
#include <exception>
#include <stdexcept>
#include <string>
#include <utility>

static int live_guards = 0;
struct guard {
    const char *name;
    explicit guard(const char *n) : name(n) { ++live_guards; }
    ~guard() { --live_guards; }
};

template <typename T>
struct task {
    struct promise_type {
        T value{};
        std::exception_ptr error;
        std::coroutine_handle<> continuation;
        task get_return_object() {
            return task{std::coroutine_handle<promise_type>::from_promise(*this)};
        }
        std::suspend_always initial_suspend() noexcept { return {}; }
        auto final_suspend() noexcept {
            struct final_awaiter {
                bool await_ready() noexcept { return false; }
                std::coroutine_handle<> await_suspend(std::coroutine_handle<promise_type> h) noexcept {
                    auto c = h.promise().continuation;
                    return c ? c : std::noop_coroutine();
                }
                void await_resume() noexcept {}
            };
            return final_awaiter{};
        }
        void return_value(T v) { value = std::move(v); }
        void unhandled_exception() noexcept { error = std::current_exception(); }
    };
    std::coroutine_handle<promise_type> h;
    explicit task(std::coroutine_handle<promise_type> h) : h(h) {}
    task(task &&o) noexcept : h(std::exchange(o.h, {})) {}
    ~task() {
        if (h)
            h.destroy();
    }
    bool await_ready() const noexcept { return false; }
    std::coroutine_handle<> await_suspend(std::coroutine_handle<> c) noexcept {
        h.promise().continuation = c;
        return h;
    }
    T await_resume() {
        if (h.promise().error)
            std::rethrow_exception(h.promise().error);
        return std::move(h.promise().value);
    }
    T get() {
        h.resume();
        return await_resume();
    }
};

// Promise type whose unhandled_exception rethrows: the exception escapes
// from resume() (here: from the initial resume in the ramp).
struct rethrowing {
    struct promise_type {
        rethrowing get_return_object() { return {}; }
        std::suspend_never initial_suspend() noexcept { return {}; }
        std::suspend_never final_suspend() noexcept { return {}; }
        void return_void() {}
        void unhandled_exception() { throw; }
    };
};

struct throwing_awaiter {
    bool fail;
    bool await_ready() const noexcept { return false; }
    bool await_suspend(std::coroutine_handle<>) const noexcept { return false; }
    int await_resume() const {
        if (fail)
            throw std::runtime_error("await_resume failed");
        return 11;
    }
};

static task<int> may_fail(int x) {
    guard g("may_fail");
    if (x < 0)
        throw std::invalid_argument("negative");
    co_await std::suspend_never{};
    if (x == 13)
        throw 13;
    co_return x + 1;
}

static task<int> catches_inside(int x) {
    guard g("catches_inside");
    try {
        co_return co_await may_fail(x);
    } catch (const std::invalid_argument &e) {
        std::printf("caught inside: %s\n", e.what());
    }
    co_return -1;
}

static task<std::string> propagates(int x) {
    guard g("propagates");
    int v = co_await may_fail(x);
    int w = co_await throwing_awaiter{v > 100};
    co_return std::to_string(v + w);
}

static rethrowing eager_thrower(bool t) {
    guard g("eager");
    if (t)
        throw std::logic_error("eager");
    co_return;
}

static task<int> nested_try(int x) {
    int total = 0;
    for (int i = 0; i < 3; ++i) {
        try {
            try {
                total += co_await may_fail(x + i == 14 ? 13 : x + i);
            } catch (int code) {
                total += code * 1000;
                throw std::runtime_error("converted");
            }
        } catch (const std::runtime_error &) {
            total += 1;
        }
    }
    co_return total;
}

int main() {
    int results = 0;
    results += catches_inside(5).get();
    results += catches_inside(-5).get();
    try {
        propagates(13).get();
    } catch (int code) {
        results += code;
    }
    try {
        propagates(200).get();
    } catch (const std::runtime_error &e) {
        std::printf("propagated: %s\n", e.what());
        results += 100;
    }
    std::string s = propagates(1).get();
    try {
        eager_thrower(true);
    } catch (const std::logic_error &) {
        results += 1000;
    }
    eager_thrower(false);
    results += nested_try(12).get();
    std::printf("%d %s live=%d\n", results, s.c_str(), live_guards);
    return live_guards;
}
