// kotlinx/coroutines/Dispatcher.hpp - a single-threaded event loop and suspending primitives on it.
//
// EventLoop is a FIFO queue of (continuation, result) pairs; run() resumes them in order until
// the queue is empty. Suspending primitives never resume a continuation from inside the call that
// returns COROUTINE_SUSPENDED for it: they enqueue it (so the suspend function has returned and
// its state is saved before anyone resumes it).
//
// The most recently constructed live EventLoop of a thread is its current one
// (EventLoop::current()); primitives without an explicit loop use it.
#pragma once

#include <cassert>
#include <cstddef>
#include <deque>
#include <utility>

#include "kotlinx/coroutines/Continuation.hpp"

namespace kotlinx::coroutines {

class EventLoop {
public:
    EventLoop() noexcept : previous_(current_) { current_ = this; }
    ~EventLoop() {
        // Continuations still queued are dropped (not resumed): call cancel_pending() and run()
        // first to let them unwind (see OWNERSHIP in Continuation.hpp).
        if (current_ == this) current_ = previous_;
    }
    EventLoop(const EventLoop&) = delete;
    EventLoop& operator=(const EventLoop&) = delete;

    static EventLoop* current_or_null() noexcept { return current_; }
    static EventLoop& current() noexcept {
        assert(current_ != nullptr && "no kotlinx::coroutines::EventLoop on this thread");
        return *current_;
    }

    /// Resume `c` with `result` when the loop gets to it.
    void dispatch(Continuation* c, Result<void*> result) { queue_.push_back(Task{c, std::move(result)}); }

    /// Starts a call-owned coroutine C(completion, args...) when the loop gets to it.
    template <class C, class... Args>
    void launch(Continuation* completion, Args&&... args) {
        dispatch(new_continuation<C>(completion, std::forward<Args>(args)...), Result<void*>::success(nullptr));
    }

    /// Resumes the first queued continuation; false if there was none. An exception that no
    /// completion takes (a failed coroutine without completion) propagates to the caller.
    bool run_one() {
        if (queue_.empty()) return false;
        Task task = std::move(queue_.front());
        queue_.pop_front();
        task.continuation->resume_with(std::move(task.result));
        return true;
    }

    /// Runs until the queue is empty; returns how many resumptions it made.
    std::size_t run() {
        std::size_t n = 0;
        while (run_one()) ++n;
        return n;
    }

    std::size_t pending() const noexcept { return queue_.size(); }

    /// Replaces the result of every queued continuation by a CancellationException: the next
    /// run() throws it at each of their suspend points, so they unwind and free their frames.
    void cancel_pending() {
        for (Task& t : queue_)
            t.result = Result<void*>::failure(std::make_exception_ptr(CancellationException()));
    }

private:
    struct Task {
        Continuation* continuation;
        Result<void*> result;
    };
    std::deque<Task> queue_;
    EventLoop* previous_;
    static inline thread_local EventLoop* current_ = nullptr;
};

/// Suspends and resumes `c` with `result` from the event loop (after what is already queued).
inline void* resume_later(EventLoop& loop, Continuation* c, Result<void*> result) {
    loop.dispatch(c, std::move(result));
    return COROUTINE_SUSPENDED;
}
inline void* resume_later(Continuation* c, Result<void*> result) {
    return resume_later(EventLoop::current(), c, std::move(result));
}

/// Lets the other queued coroutines run: suspends, and resumes with nullptr.
inline void* yield_now(EventLoop& loop, Continuation* c) { return resume_later(loop, c, Result<void*>::success(nullptr)); }
inline void* yield_now(Continuation* c) { return yield_now(EventLoop::current(), c); }

/// Suspends, and resumes with `value` (an echo through the event loop).
inline void* yield_value(Continuation* c, void* value) {
    return resume_later(c, Result<void*>::success(value));
}

/// Suspends, and resumes by throwing `error` at the suspend point.
inline void* yield_failure(Continuation* c, std::exception_ptr error) {
    return resume_later(c, Result<void*>::failure(std::move(error)));
}

}  // namespace kotlinx::coroutines
