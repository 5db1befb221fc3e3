// Lazy task<T> with co_await and symmetric transfer: final_suspend returns
// an awaiter whose await_suspend returns the continuation handle, and
// awaiting a task returns the task's handle from await_suspend.
#include <coroutine>
#include <cstdio>
#include <exception>
#include <optional>
#include <utility>

template <typename T>
class task {
public:
    struct promise_type;
    using handle = std::coroutine_handle<promise_type>;

    struct final_awaiter {
        bool await_ready() noexcept { return false; }
        std::coroutine_handle<> await_suspend(handle h) noexcept {
            if (auto c = h.promise().continuation)
                return c;
            return std::noop_coroutine();
        }
        void await_resume() noexcept {}
    };

    struct promise_type {
        std::optional<T> value;
        std::exception_ptr error;
        std::coroutine_handle<> continuation;
        task get_return_object() { return task{handle::from_promise(*this)}; }
        std::suspend_always initial_suspend() noexcept { return {}; }
        final_awaiter final_suspend() noexcept { return {}; }
        template <typename U>
        void return_value(U &&v) {
            value.emplace(std::forward<U>(v));
        }
        void unhandled_exception() { error = std::current_exception(); }
    };

    struct awaiter {
        handle h;
        bool await_ready() const noexcept { return !h || h.done(); }
        std::coroutine_handle<> await_suspend(std::coroutine_handle<> caller) noexcept {
            h.promise().continuation = caller;
            return h;  // symmetric transfer into the awaited task
        }
        T await_resume() {
            if (h.promise().error)
                std::rethrow_exception(h.promise().error);
            return std::move(*h.promise().value);
        }
    };

    explicit task(handle h) : h_(h) {}
    task(task &&o) noexcept : h_(std::exchange(o.h_, {})) {}
    ~task() {
        if (h_)
            h_.destroy();
    }
    awaiter operator co_await() && noexcept { return awaiter{h_}; }

    // Drive a top-level task to completion from non-coroutine code.
    T run() {
        h_.resume();
        if (h_.promise().error)
            std::rethrow_exception(h_.promise().error);
        return std::move(*h_.promise().value);
    }

private:
    handle h_;
};

static task<int> leaf(int x) { co_return x * 2; }

static task<int> add_leaves(int a, int b) {
    int x = co_await leaf(a);
    int y = co_await leaf(b);
    co_return x + y;
}

// Deep chain of awaits: symmetric transfer keeps the stack flat.
static task<long> chain(int depth) {
    if (depth == 0)
        co_return 1;
    long below = co_await chain(depth - 1);
    co_return below + depth;
}

static task<double> loop_awaits(int n) {
    double acc = 0;
    for (int i = 0; i < n; ++i) {
        if (i % 2)
            acc += co_await leaf(i);
        else
            acc -= co_await add_leaves(i, 1);
    }
    co_return acc;
}

struct big_result {
    int data[16];
    const char *tag;
};

static task<big_result> make_big(const char *tag) {
    big_result r{};
    for (int i = 0; i < 16; ++i)
        r.data[i] = co_await leaf(i);
    r.tag = tag;
    co_return r;
}

// A custom awaitable that suspends and immediately resumes via bool.
struct yield_once {
    bool await_ready() const noexcept { return false; }
    bool await_suspend(std::coroutine_handle<>) const noexcept { return false; }
    int await_resume() const noexcept { return 5; }
};

static task<int> with_custom_awaiter() {
    int a = co_await yield_once{};
    int b = co_await yield_once{};
    co_return a * b;
}

int main() {
    int r1 = add_leaves(3, 4).run();
    long r2 = chain(1000).run();
    double r3 = loop_awaits(10).run();
    big_result big = make_big("big").run();
    int r4 = with_custom_awaiter().run();
    std::printf("%d %ld %g %d %s %d\n", r1, r2, r3, big.data[15], big.tag, r4);
    return 0;
}
