// Eager tasks: initial_suspend returns suspend_never, the coroutine runs
// synchronously until its first real suspension. Uses await_suspend
// returning void and bool, a manual event queue to resume coroutines, and
// co_return void.
#include <coroutine>
#include <cstdio>
#include <deque>
#include <exception>
#include <utility>

static std::deque<std::coroutine_handle<>> ready_queue;

struct eager {
    struct promise_type {
        int *result_slot = nullptr;
        eager get_return_object() { return {}; }
        std::suspend_never initial_suspend() noexcept { return {}; }
        std::suspend_never final_suspend() noexcept { return {}; }  // frame self-destroys
        void return_void() noexcept {}
        void unhandled_exception() noexcept { std::terminate(); }
    };
};

// await_suspend returning void: always suspends, enqueues the handle.
struct reschedule {
    bool await_ready() const noexcept { return false; }
    void await_suspend(std::coroutine_handle<> h) const { ready_queue.push_back(h); }
    void await_resume() const noexcept {}
};

// await_suspend returning bool: suspends only when the value is odd.
struct maybe_suspend {
    int value;
    bool await_ready() const noexcept { return false; }
    bool await_suspend(std::coroutine_handle<> h) const {
        if (value % 2) {
            ready_queue.push_back(h);
            return true;
        }
        return false;
    }
    int await_resume() const noexcept { return value * 3; }
};

struct event {
    bool set = false;
    std::coroutine_handle<> waiter;
    bool await_ready() const noexcept { return set; }
    void await_suspend(std::coroutine_handle<> h) noexcept { waiter = h; }
    void await_resume() const noexcept {}
    void fire() {
        set = true;
        if (auto w = std::exchange(waiter, {}))
            ready_queue.push_back(w);
    }
};

static int log_total = 0;

static eager worker(int id, int steps) {
    for (int i = 0; i < steps; ++i) {
        log_total += id * 100 + i;
        co_await reschedule{};
    }
    co_return;
}

static eager mixed(int n) {
    int acc = 0;
    for (int i = 0; i < n; ++i)
        acc += co_await maybe_suspend{i};
    log_total += acc;
}

static eager waits_for(event &e, int tag) {
    co_await e;
    log_total += tag;
}

static void run_all() {
    while (!ready_queue.empty()) {
        auto h = ready_queue.front();
        ready_queue.pop_front();
        h.resume();
    }
}

int main() {
    event e;
    worker(1, 3);
    worker(2, 2);
    mixed(6);
    waits_for(e, 7000);
    run_all();
    e.fire();
    run_all();
    waits_for(e, 50000);  // already set: does not suspend at all
    std::printf("%d\n", log_total);
    return 0;
}
