// A future/promise-style lazy task library whose promise's get_return_object()
// returns std::shared_ptr<shared_state<T>> (a type with a non-trivial
// destructor), which the ramp converts to the coroutine's return type
// future<T>. Clang keeps the returned shared_ptr in an alloca marked
// `!coro.outside.frame`, adds a flag saying whether it still has to be
// destroyed, and destroys it on the ramp's return path.
//
// Exercised: futures started from a run queue, futures awaiting futures
// (symmetric transfer through the continuation kept in the shared state),
// results observed through a second reference to the shared state after the
// future is gone, exceptions stored in the state and rethrown, a future
// destroyed before it started, and the number of live states and frames.
//
// Note: clang 22.1 miscompiles this (llvm/llvm-project#193412: the return
// object's cleanup runs in the resumed coroutine on a fresh copy of the
// alloca; valgrind reports invalid reads and writes), so the harness builds it
// with clang-19 only. Output is one line per event; exit 0 when every check
// held.
#include <coroutine>
#include <cstdio>
#include <deque>
#include <exception>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

static int failures = 0;
static int live_states = 0;
static int live_frames = 0;

static void check(bool ok, const char* what) {
    if (!ok) {
        std::printf("CHECK FAILED: %s\n", what);
        ++failures;
    }
}

static std::deque<std::coroutine_handle<>> run_queue;

struct yield_op {
    bool await_ready() const noexcept { return false; }
    void await_suspend(std::coroutine_handle<> h) { run_queue.push_back(h); }
    void await_resume() const noexcept {}
};

static void drain() {
    while (!run_queue.empty()) {
        auto h = run_queue.front();
        run_queue.pop_front();
        h.resume();
    }
}

template <typename T>
struct shared_state {
    std::coroutine_handle<> coro;          // the coroutine, until the future destroys it
    std::coroutine_handle<> continuation;  // who awaits the result
    std::optional<T> value;
    std::exception_ptr error;
    bool started = false;
    shared_state() { ++live_states; }
    ~shared_state() { --live_states; }
    bool ready() const { return value.has_value() || error != nullptr; }
    T get() {
        if (error) std::rethrow_exception(error);
        return *value;
    }
};

template <typename T>
class future {
public:
    struct promise_type {
        std::shared_ptr<shared_state<T>> state = std::make_shared<shared_state<T>>();
        promise_type() { ++live_frames; }
        ~promise_type() { --live_frames; }
        // Not future<T>: the shared state, which future<T> is constructed from.
        std::shared_ptr<shared_state<T>> get_return_object() {
            state->coro = std::coroutine_handle<promise_type>::from_promise(*this);
            return state;
        }
        std::suspend_always initial_suspend() noexcept { return {}; }
        struct final_awaiter {
            bool await_ready() const noexcept { return false; }
            std::coroutine_handle<> await_suspend(std::coroutine_handle<promise_type> h) noexcept {
                auto next = h.promise().state->continuation;
                return next ? next : std::noop_coroutine();
            }
            void await_resume() const noexcept {}
        };
        final_awaiter final_suspend() noexcept { return {}; }
        template <typename U>
        void return_value(U&& v) {
            state->value.emplace(std::forward<U>(v));
        }
        void unhandled_exception() noexcept { state->error = std::current_exception(); }
    };

    future(std::shared_ptr<shared_state<T>> s) noexcept : state_(std::move(s)) {}  // NOLINT: implicit
    future(future&& o) noexcept : state_(std::move(o.state_)) {}
    ~future() {
        if (state_ && state_->coro) state_->coro.destroy();
    }

    // Starts the coroutine from the run queue.
    void start() {
        state_->started = true;
        run_queue.push_back(state_->coro);
    }
    std::shared_ptr<shared_state<T>> share() const { return state_; }

    bool await_ready() const noexcept { return state_->ready(); }
    std::coroutine_handle<> await_suspend(std::coroutine_handle<> h) noexcept {
        state_->continuation = h;
        if (state_->started) return std::noop_coroutine();  // it will resume us when done
        state_->started = true;
        return state_->coro;  // symmetric transfer into the lazy coroutine
    }
    T await_resume() { return state_->get(); }

private:
    std::shared_ptr<shared_state<T>> state_;
};

static future<int> compute(int x, int yields) {
    for (int i = 0; i < yields; ++i) co_await yield_op{};
    co_return x * x;
}

static future<std::string> describe(int x) {
    int sq = co_await compute(x, 2);
    int cube = co_await compute(x, 0) * x;
    co_return std::to_string(x) + "^2=" + std::to_string(sq) + " " + std::to_string(x) + "^3=" + std::to_string(cube);
}

static future<int> fails(int yields) {
    for (int i = 0; i < yields; ++i) co_await yield_op{};
    throw std::runtime_error("failed after " + std::to_string(yields) + " yields");
    co_return 0;
}

static future<int> sum_of_squares(int n) {
    int sum = 0;
    for (int i = 1; i <= n; ++i) sum += co_await compute(i, i % 2);
    co_return sum;
}

static future<int> recovers() {
    try {
        co_await fails(2);
    } catch (const std::runtime_error& e) {
        std::printf("recovers: caught '%s'\n", e.what());
    }
    co_return co_await compute(9, 1);
}

int main() {
    std::printf("== started from the run queue\n");
    {
        future<int> f = compute(7, 3);
        auto seen = f.share();
        std::printf("ready before: %d, frames %d, states %d\n", seen->ready(), live_frames, live_states);
        f.start();
        drain();
        std::printf("compute(7) = %d\n", seen->get());
        check(seen->get() == 49, "compute(7)");
    }
    std::printf("frames %d, states %d\n", live_frames, live_states);

    std::printf("== futures awaiting futures\n");
    {
        future<std::string> d = describe(3);
        auto seen = d.share();
        d.start();
        drain();
        std::printf("describe(3) = '%s'\n", seen->get().c_str());
        future<int> s = sum_of_squares(10);
        auto total = s.share();
        s.start();
        drain();
        std::printf("sum_of_squares(10) = %d\n", total->get());
        check(total->get() == 385, "sum_of_squares");
    }

    std::printf("== exceptions\n");
    {
        future<int> f = fails(1);
        auto seen = f.share();
        f.start();
        drain();
        try {
            seen->get();
            std::printf("not reached\n");
        } catch (const std::runtime_error& e) {
            std::printf("get rethrew '%s'\n", e.what());
        }
        future<int> r = recovers();
        auto rs = r.share();
        r.start();
        drain();
        std::printf("recovers = %d\n", rs->get());
    }

    std::printf("== never started\n");
    {
        future<int> unused = compute(5, 1);
        std::printf("frames while holding one: %d\n", live_frames);
    }
    std::printf("frames %d, states %d at the end\n", live_frames, live_states);
    check(live_frames == 0 && live_states == 0, "nothing leaked");
    std::printf("%s\n", failures == 0 ? "ok" : "FAILED");
    return failures == 0 ? 0 : 1;
}
