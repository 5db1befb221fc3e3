// A small hand-written task library in the style of popular C++20 task
// libraries (lazy task<T>, sync_wait, when_all, a run-queue scheduler), whose
// promises' get_return_object() return a type DIFFERENT from the coroutine's
// return type (a coroutine_handle, or a small handle struct, implicitly
// convertible to it). Clang then keeps the returned object in an alloca marked
// `!coro.outside.frame` and converts it on the ramp's return path, after the
// coroutine may already have run to completion and freed its frame.
//
// Exercised: lazy tasks of values, references, move-only types and void;
// symmetric transfer (await_suspend and final_suspend return the next
// handle) over a 50,000-iteration synchronous loop; a run queue that
// interleaves tasks; when_all over two tasks and over a vector of tasks;
// exceptions thrown at different depths and rethrown through co_await,
// when_all and sync_wait; destroying a task that never started. (The
// returned objects are trivially destructible handles; task_shared_gro.cpp
// has one with a destructor.)
//
// Output is one line per event; the program exits 0 when every check held.
#include <coroutine>
#include <cstdio>
#include <deque>
#include <exception>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

static int failures = 0;
static int live_frames = 0;

static void check(bool ok, const char* what) {
    if (!ok) {
        std::printf("CHECK FAILED: %s\n", what);
        ++failures;
    }
}

// --- scheduler -----------------------------------------------------------------------------------

struct scheduler {
    std::deque<std::coroutine_handle<>> ready;

    struct schedule_op {
        scheduler& s;
        bool await_ready() const noexcept { return false; }
        void await_suspend(std::coroutine_handle<> h) { s.ready.push_back(h); }
        void await_resume() const noexcept {}
    };
    schedule_op schedule() { return {*this}; }

    bool run_one() {
        if (ready.empty()) return false;
        auto h = ready.front();
        ready.pop_front();
        h.resume();
        return true;
    }
};

static scheduler sched;

// --- task<T> ---------------------------------------------------------------------------------------

template <typename T>
class task;

namespace detail {

struct promise_base {
    std::coroutine_handle<> continuation = std::noop_coroutine();
    std::exception_ptr error;

    promise_base() { ++live_frames; }
    ~promise_base() { --live_frames; }

    std::suspend_always initial_suspend() noexcept { return {}; }

    struct final_awaiter {
        bool await_ready() const noexcept { return false; }
        template <typename P>
        std::coroutine_handle<> await_suspend(std::coroutine_handle<P> h) noexcept {
            return h.promise().continuation;  // symmetric transfer
        }
        void await_resume() const noexcept {}
    };
    final_awaiter final_suspend() noexcept { return {}; }

    void unhandled_exception() noexcept { error = std::current_exception(); }
    void rethrow_if_error() {
        if (error) std::rethrow_exception(error);
    }
};

template <typename T>
struct task_promise : promise_base {
    // Not task<T>: the handle, which task<T> is implicitly constructible from.
    std::coroutine_handle<task_promise> get_return_object() noexcept {
        return std::coroutine_handle<task_promise>::from_promise(*this);
    }
    template <typename U>
    void return_value(U&& v) {
        value.emplace(std::forward<U>(v));
    }
    T result() {
        rethrow_if_error();
        return std::move(*value);
    }
    std::optional<T> value;
};

template <typename T>
struct task_promise<T&> : promise_base {
    std::coroutine_handle<task_promise> get_return_object() noexcept {
        return std::coroutine_handle<task_promise>::from_promise(*this);
    }
    void return_value(T& v) noexcept { ptr = &v; }
    T& result() {
        rethrow_if_error();
        return *ptr;
    }
    T* ptr = nullptr;
};

template <>
struct task_promise<void> : promise_base {
    std::coroutine_handle<task_promise> get_return_object() noexcept {
        return std::coroutine_handle<task_promise>::from_promise(*this);
    }
    void return_void() noexcept {}
    void result() { rethrow_if_error(); }
};

}  // namespace detail

template <typename T = void>
class [[nodiscard]] task {
public:
    using promise_type = detail::task_promise<T>;
    using handle = std::coroutine_handle<promise_type>;

    task(handle h) noexcept : h_(h) {}  // NOLINT: implicit on purpose
    task(task&& o) noexcept : h_(std::exchange(o.h_, {})) {}
    task& operator=(task&& o) noexcept {
        if (this != &o) {
            if (h_) h_.destroy();
            h_ = std::exchange(o.h_, {});
        }
        return *this;
    }
    ~task() {
        if (h_) h_.destroy();
    }

    struct awaiter {
        handle h;
        bool await_ready() const noexcept { return !h || h.done(); }
        std::coroutine_handle<> await_suspend(std::coroutine_handle<> awaiting) noexcept {
            h.promise().continuation = awaiting;
            return h;  // symmetric transfer into the child
        }
        T await_resume() { return h.promise().result(); }
    };
    awaiter operator co_await() && noexcept { return awaiter{h_}; }
    awaiter operator co_await() & noexcept { return awaiter{h_}; }

private:
    handle h_;
};

// --- sync_wait -----------------------------------------------------------------------------------

namespace detail {

// The driver coroutine of sync_wait. Its get_return_object returns a
// sync_wait_handle; the coroutine's return type is sync_wait_task.
struct sync_wait_task {
    struct promise_type;
    struct sync_wait_handle {
        std::coroutine_handle<promise_type> h;
    };
    struct promise_type {
        bool done = false;
        std::exception_ptr error;
        sync_wait_handle get_return_object() noexcept {
            return {std::coroutine_handle<promise_type>::from_promise(*this)};
        }
        std::suspend_always initial_suspend() noexcept { return {}; }
        std::suspend_always final_suspend() noexcept {
            done = true;
            return {};
        }
        void return_void() noexcept {}
        void unhandled_exception() noexcept { error = std::current_exception(); }
    };

    sync_wait_task(sync_wait_handle s) noexcept : h(s.h) {}  // NOLINT: implicit on purpose
    sync_wait_task(sync_wait_task&& o) noexcept : h(std::exchange(o.h, {})) {}
    ~sync_wait_task() {
        if (h) h.destroy();
    }
    std::coroutine_handle<promise_type> h;
};

template <typename T, typename F>
sync_wait_task make_sync_wait_task(task<T>& t, F store) {
    if constexpr (std::is_void_v<T>) {
        co_await t;
        store();
    } else {
        store(co_await t);
    }
}

}  // namespace detail

template <typename T>
T sync_wait(task<T> t) {
    if constexpr (std::is_void_v<T>) {
        auto driver = detail::make_sync_wait_task(t, [] {});
        driver.h.resume();
        while (!driver.h.promise().done && sched.run_one()) {
        }
        check(driver.h.promise().done, "sync_wait: run queue drained before the task finished");
        if (driver.h.promise().error) std::rethrow_exception(driver.h.promise().error);
    } else {
        // A reference result is kept as a pointer, any other result in an optional.
        using stored = std::conditional_t<std::is_reference_v<T>, std::remove_reference_t<T>*, std::optional<T>>;
        stored storage{};
        auto driver = detail::make_sync_wait_task(t, [&](T&& v) {
            if constexpr (std::is_reference_v<T>) {
                storage = &v;
            } else {
                storage.emplace(std::move(v));
            }
        });
        driver.h.resume();
        while (!driver.h.promise().done && sched.run_one()) {
        }
        check(driver.h.promise().done, "sync_wait: run queue drained before the task finished");
        if (driver.h.promise().error) std::rethrow_exception(driver.h.promise().error);
        if constexpr (std::is_reference_v<T>) {
            return *storage;
        } else {
            return std::move(*storage);
        }
    }
}

// --- when_all --------------------------------------------------------------------------------------

namespace detail {

struct when_all_counter {
    std::size_t remaining;
    std::coroutine_handle<> continuation;
    void arrive() {
        if (--remaining == 0) sched.ready.push_back(continuation);
    }
};

// The child coroutine of when_all: runs one task to completion, then arrives.
struct when_all_child {
    struct promise_type;
    using handle = std::coroutine_handle<promise_type>;
    struct promise_type {
        when_all_counter* counter = nullptr;
        handle get_return_object() noexcept { return handle::from_promise(*this); }  // not when_all_child
        std::suspend_always initial_suspend() noexcept { return {}; }
        struct final_awaiter {
            bool await_ready() const noexcept { return false; }
            void await_suspend(handle h) noexcept { h.promise().counter->arrive(); }
            void await_resume() const noexcept {}
        };
        final_awaiter final_suspend() noexcept { return {}; }
        void return_void() noexcept {}
        void unhandled_exception() noexcept { std::terminate(); }  // the body catches everything
    };
    when_all_child(handle h) noexcept : h(h) {}  // NOLINT: implicit on purpose
    when_all_child(when_all_child&& o) noexcept : h(std::exchange(o.h, {})) {}
    ~when_all_child() {
        if (h) h.destroy();
    }
    handle h;
};

template <typename T>
struct outcome {
    std::optional<T> value;
    std::exception_ptr error;
};

template <typename T>
when_all_child run_child(task<T>& t, outcome<T>& out) {
    try {
        out.value.emplace(co_await t);
    } catch (...) {
        out.error = std::current_exception();
    }
}

struct when_all_awaiter {
    when_all_counter& counter;
    std::vector<when_all_child*> children;
    bool await_ready() const noexcept { return children.empty(); }
    void await_suspend(std::coroutine_handle<> h) {
        counter.continuation = h;
        for (auto* c : children) {
            c->h.promise().counter = &counter;
            sched.ready.push_back(c->h);  // children start from the run queue, interleaved
        }
    }
    void await_resume() const noexcept {}
};

}  // namespace detail

template <typename A, typename B>
task<std::tuple<A, B>> when_all(task<A> a, task<B> b) {
    detail::outcome<A> oa;
    detail::outcome<B> ob;
    detail::when_all_child ca = detail::run_child(a, oa);
    detail::when_all_child cb = detail::run_child(b, ob);
    detail::when_all_counter counter{2, {}};
    std::vector<detail::when_all_child*> ptrs{&ca, &cb};
    co_await detail::when_all_awaiter{counter, std::move(ptrs)};
    if (oa.error) std::rethrow_exception(oa.error);
    if (ob.error) std::rethrow_exception(ob.error);
    co_return std::tuple<A, B>{std::move(*oa.value), std::move(*ob.value)};
}

template <typename T>
task<std::vector<T>> when_all(std::vector<task<T>> tasks) {
    std::vector<detail::outcome<T>> outs(tasks.size());
    std::vector<detail::when_all_child> children;
    children.reserve(tasks.size());
    for (std::size_t i = 0; i < tasks.size(); ++i) children.push_back(detail::run_child(tasks[i], outs[i]));
    detail::when_all_counter counter{tasks.size(), {}};
    std::vector<detail::when_all_child*> ptrs;
    for (auto& c : children) ptrs.push_back(&c);
    co_await detail::when_all_awaiter{counter, std::move(ptrs)};
    std::vector<T> results;
    for (auto& o : outs) {
        if (o.error) std::rethrow_exception(o.error);
        results.push_back(std::move(*o.value));
    }
    co_return results;
}

// --- the program -------------------------------------------------------------------------------------

static task<int> leaf(int v) { co_return v; }

static task<long> sync_loop(int n) {
    long sum = 0;
    for (int i = 0; i < n; ++i) sum += co_await leaf(i % 7);  // completes synchronously: symmetric transfer
    co_return sum;
}

static task<std::string> worker(std::string name, int steps) {
    std::string out;
    for (int i = 0; i < steps; ++i) {
        co_await sched.schedule();
        std::printf("  %s step %d\n", name.c_str(), i);
        out += name;
    }
    co_return out;
}

static task<int> fails_after(int steps, const char* msg) {
    for (int i = 0; i < steps; ++i) co_await sched.schedule();
    throw std::runtime_error(msg);
    co_return 0;
}

static task<int> depth(int n) {
    if (n == 0) {
        co_await sched.schedule();
        throw std::out_of_range("bottom of the recursion");
    }
    co_return 1 + co_await depth(n - 1);
}

static int global_counter = 0;
static task<int&> counter_ref() {
    co_await sched.schedule();
    co_return global_counter;
}

static task<std::unique_ptr<std::string>> make_unique_string(const char* s) {
    co_await sched.schedule();
    co_return std::make_unique<std::string>(s);
}

static task<> void_task(int& hits) {
    co_await sched.schedule();
    ++hits;
}

static task<int> catches() {
    try {
        co_await depth(5);
        std::printf("catches: not reached\n");
    } catch (const std::out_of_range& e) {
        std::printf("catches: '%s'\n", e.what());
    }
    co_return 7;
}

static task<int> sum_pair() {
    auto [x, s] = co_await when_all(leaf(40), worker("w", 2));
    co_return x + static_cast<int>(s.size());
}

int main() {
    std::printf("== sync_loop\n");
    long s = sync_wait(sync_loop(50000));
    std::printf("sync_loop(50000) = %ld\n", s);
    check(s == 149997, "sync_loop sum");  // 7142 cycles of 0..6 (21 each), then 0..5 (15)

    std::printf("== when_all of two\n");
    auto [a, b] = sync_wait(when_all(worker("a", 3), worker("b", 2)));
    std::printf("when_all -> '%s' '%s'\n", a.c_str(), b.c_str());
    check(a == "aaa" && b == "bb", "when_all pair");

    std::printf("== when_all of a vector\n");
    std::vector<task<std::string>> many;
    many.push_back(worker("x", 1));
    many.push_back(worker("y", 3));
    many.push_back(worker("z", 2));
    std::vector<std::string> r = sync_wait(when_all(std::move(many)));
    std::printf("when_all ->");
    for (auto& v : r) std::printf(" '%s'", v.c_str());
    std::printf("\n");

    std::printf("== nested when_all\n");
    int n = sync_wait(sum_pair());
    std::printf("sum_pair = %d\n", n);
    check(n == 42, "sum_pair");

    std::printf("== exceptions\n");
    try {
        sync_wait(depth(4));
        std::printf("not reached\n");
    } catch (const std::out_of_range& e) {
        std::printf("sync_wait rethrew '%s'\n", e.what());
    }
    try {
        sync_wait(when_all(worker("p", 3), fails_after(1, "child failed")));
        std::printf("not reached\n");
    } catch (const std::runtime_error& e) {
        std::printf("when_all rethrew '%s'\n", e.what());
    }
    std::printf("catches -> %d\n", sync_wait(catches()));

    std::printf("== references, move-only values, void\n");
    int& ref = sync_wait(counter_ref());
    ref = 5;
    std::printf("global_counter = %d\n", global_counter);
    std::unique_ptr<std::string> up = sync_wait(make_unique_string("moved"));
    std::printf("unique_ptr -> '%s'\n", up->c_str());
    int hits = 0;
    sync_wait(void_task(hits));
    sync_wait(void_task(hits));
    std::printf("void tasks hit %d times\n", hits);

    std::printf("== never started\n");
    {
        task<std::string> unused = worker("never", 1);
        std::printf("live frames while holding one: %d\n", live_frames);
    }
    std::printf("live frames at the end: %d\n", live_frames);
    check(live_frames == 0, "no frame leaked");
    std::printf("%s\n", failures == 0 ? "ok" : "FAILED");
    return failures == 0 ? 0 : 1;
}
