// kotlinx/coroutines/Channel.hpp - an unbounded single-threaded channel.
#pragma once

#include <cstddef>
#include <deque>
#include <stdexcept>
#include <utility>

#include "kotlinx/coroutines/Dispatcher.hpp"

namespace kotlinx::coroutines {

class ClosedReceiveChannelException : public std::runtime_error {
public:
    ClosedReceiveChannelException() : std::runtime_error("channel was closed") {}
};

class ClosedSendChannelException : public std::runtime_error {
public:
    ClosedSendChannelException() : std::runtime_error("send to a closed channel") {}
};

/// An unbounded FIFO channel: send never suspends, receive suspends while the channel is empty.
/// Receivers are resumed through the event loop given at construction (default: the current
/// one). A receiver still waiting when the channel is destroyed is never resumed: close() it
/// first (waiting receivers then get ClosedReceiveChannelException).
template <class T>
class Channel {
public:
    explicit Channel(EventLoop& loop = EventLoop::current()) : loop_(&loop) {}
    Channel(const Channel&) = delete;
    Channel& operator=(const Channel&) = delete;

    /// Never suspends; hands `value` to the longest-waiting receiver if there is one.
    void send(T value) {
        if (closed_) throw ClosedSendChannelException();
        if (!receivers_.empty()) {
            Receiver r = receivers_.front();
            receivers_.pop_front();
            *r.out = std::move(value);
            loop_->dispatch(r.continuation, Result<void*>::success(r.out));
            return;
        }
        buffer_.push_back(std::move(value));
    }

    /// Suspending: moves the next element into `*out` and returns `out`; if there is none yet,
    /// suspends and resumes `c` with `out` once an element was moved there. Throws (or resumes
    /// with) ClosedReceiveChannelException once the channel is closed and empty. `*out` must stay
    /// valid until then: a local of the suspend function (the transform keeps locals whose address
    /// is taken in its spill frame) or a field of its continuation.
    void* receive(Continuation* c, T* out) {
        if (!buffer_.empty()) {
            *out = std::move(buffer_.front());
            buffer_.pop_front();
            return out;
        }
        if (closed_) throw ClosedReceiveChannelException();
        receivers_.push_back(Receiver{c, out});
        return COROUTINE_SUSPENDED;
    }

    /// No more sends; receivers waiting now get ClosedReceiveChannelException.
    void close() {
        closed_ = true;
        while (!receivers_.empty()) {
            Receiver r = receivers_.front();
            receivers_.pop_front();
            loop_->dispatch(r.continuation,
                            Result<void*>::failure(std::make_exception_ptr(ClosedReceiveChannelException())));
        }
    }

    bool is_closed_for_send() const noexcept { return closed_; }
    bool is_closed_for_receive() const noexcept { return closed_ && buffer_.empty(); }
    std::size_t size() const noexcept { return buffer_.size(); }

private:
    struct Receiver {
        Continuation* continuation;
        T* out;
    };
    EventLoop* loop_;
    std::deque<T> buffer_;
    std::deque<Receiver> receivers_;
    bool closed_ = false;
};

}  // namespace kotlinx::coroutines
