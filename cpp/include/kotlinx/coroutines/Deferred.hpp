// kotlinx/coroutines/Deferred.hpp - a value that will be available later (one-shot, awaitable).
#pragma once

#include <exception>
#include <stdexcept>
#include <utility>
#include <vector>

#include "kotlinx/coroutines/Dispatcher.hpp"

namespace kotlinx::coroutines {

/// Completed once, with a value or an exception; any number of coroutines can await it. Waiters
/// are resumed through the event loop given at construction (default: the current one). The
/// Deferred must outlive its waiters' resumption. T must be default-constructible.
template <class T>
class Deferred {
public:
    explicit Deferred(EventLoop& loop = EventLoop::current()) : loop_(&loop) {}
    Deferred(const Deferred&) = delete;
    Deferred& operator=(const Deferred&) = delete;

    bool is_completed() const noexcept { return done_; }

    /// Suspending: the address of the value (a `T*` as `void*`) if completed, throws if completed
    /// exceptionally, else suspends and later resumes `c` with the address or the exception.
    void* await(Continuation* c) {
        if (done_) {
            if (error_) std::rethrow_exception(error_);
            return &value_;
        }
        waiters_.push_back(c);
        return COROUTINE_SUSPENDED;
    }

    /// The value (throws if completed exceptionally, std::logic_error if not completed).
    const T& value() const {
        if (!done_) throw std::logic_error("Deferred is not completed");
        if (error_) std::rethrow_exception(error_);
        return value_;
    }

    /// Completes with `value`; false (and no effect) if it was already completed.
    bool complete(T value) {
        if (done_) return false;
        value_ = std::move(value);
        finish(Result<void*>::success(&value_));
        return true;
    }

    bool complete_exceptionally(std::exception_ptr error) {
        if (done_) return false;
        error_ = error;
        finish(Result<void*>::failure(std::move(error)));
        return true;
    }

private:
    void finish(const Result<void*>& r) {
        done_ = true;
        std::vector<Continuation*> waiters = std::move(waiters_);
        waiters_.clear();
        for (Continuation* w : waiters) loop_->dispatch(w, r);
    }

    EventLoop* loop_;
    T value_{};
    std::exception_ptr error_;
    bool done_ = false;
    std::vector<Continuation*> waiters_;
};

}  // namespace kotlinx::coroutines
