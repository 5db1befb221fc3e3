// The kxs runtime without the transform: suspend functions written by hand in the seed's style
// (`goto *_label` dispatch, state in fields), exercising the resume loop, ownership, EventLoop,
// Deferred, Channel and cancellation. Runs natively and under valgrind:
//     clang++ -std=c++20 -O2 -Wall -Wextra -Wno-gnu-label-as-value -I ../include runtime_native.cpp
//     valgrind --leak-check=full --error-exitcode=1 ./a.out
#include "kotlinx/coroutines/Channel.hpp"
#include "kotlinx/coroutines/Continuation.hpp"
#include "kotlinx/coroutines/Deferred.hpp"
#include "kotlinx/coroutines/Dispatcher.hpp"

#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>

using namespace kotlinx::coroutines;

static int live = 0;
struct Counted {
    Counted() { ++live; }
    ~Counted() { --live; }
};

// Hand-written suspend point: `tmp_` receives the call's value or the resumed value.
#define HAND_AWAIT(n, ...)                                               \
    tmp_ = (__VA_ARGS__);                                                \
    if (intrinsics::is_coroutine_suspended(tmp_)) {                      \
        _label = &&resume_##n;                                           \
        return COROUTINE_SUSPENDED;                                      \
    resume_##n:                                                          \
        tmp_ = result.get_or_throw();                                    \
    }

// The same, but a failure (thrown by the call or resumed with) is stored in `err_` instead of
// thrown: the seed's style cannot suspend inside a try block (`goto *` may not jump into one).
#define HAND_AWAIT_CATCHING(n, ...)                                      \
    err_ = nullptr;                                                      \
    tmp_ = nullptr;                                                      \
    try {                                                                \
        tmp_ = (__VA_ARGS__);                                            \
    } catch (...) {                                                      \
        err_ = std::current_exception();                                 \
    }                                                                    \
    if (!err_ && intrinsics::is_coroutine_suspended(tmp_)) {             \
        _label = &&resume_##n;                                           \
        return COROUTINE_SUSPENDED;                                      \
    resume_##n:                                                          \
        if (result.is_failure())                                         \
            err_ = result.exception();                                   \
        else                                                             \
            tmp_ = result.get_or_throw();                                \
    }

static std::string what(const std::exception_ptr& e) {
    try {
        std::rethrow_exception(e);
    } catch (const std::exception& x) {
        return x.what();
    }
}

class Inner : public ContinuationImpl {
    Counted counted_;
    int base_, steps_;
    int k_ = 0;
    std::intptr_t acc_ = 0;
    void* tmp_ = nullptr;

public:
    Inner(Continuation* completion, int base, int steps) : ContinuationImpl(completion), base_(base), steps_(steps) {}
    void* invoke_suspend(Result<void*> result) override {
        if (_label) goto *_label;
        acc_ = base_;
        if (base_ < 0) throw std::runtime_error("negative base");
        for (k_ = 0; k_ < steps_; ++k_) {
            HAND_AWAIT(0, yield_value(this, box_int(k_ + 1)))
            acc_ += unbox_int(tmp_);
        }
        if (acc_ == 13) throw std::runtime_error("unlucky");
        _label = nullptr;
        return box_int(acc_);
    }
};

class Outer : public ContinuationImpl {
    Counted counted_;
    Channel<std::string>* channel_;
    Deferred<int>* deferred_;
    std::intptr_t total_ = 0;
    std::string got_, text_;
    void* tmp_ = nullptr;
    std::exception_ptr err_;

public:
    Outer(Continuation* completion, Channel<std::string>* channel, Deferred<int>* deferred)
        : ContinuationImpl(completion), channel_(channel), deferred_(deferred) {}
    void* invoke_suspend(Result<void*> result) override {
        if (_label) goto *_label;
        HAND_AWAIT(0, call_suspend<Inner>(this, 1, 2))  // suspends twice: 1 + 1 + 2
        total_ += unbox_int(tmp_);
        std::printf("outer: inner(1,2) = %ld\n", static_cast<long>(unbox_int(tmp_)));
        HAND_AWAIT(1, call_suspend<Inner>(this, 100, 0))  // completes at once
        total_ += unbox_int(tmp_);
        std::printf("outer: inner(100,0) = %ld, live=%d\n", static_cast<long>(unbox_int(tmp_)), live);
        try {
            tmp_ = call_suspend<Inner>(this, -1, 0);  // throws synchronously
        } catch (const std::exception& e) {
            std::printf("outer: sync exception: %s\n", e.what());
        }
        HAND_AWAIT_CATCHING(2, call_suspend<Inner>(this, 10, 2))  // 10 + 1 + 2 = 13: throws after resuming
        if (err_)
            std::printf("outer: async exception: %s, live=%d\n", what(err_).c_str(), live);
        else
            std::printf("outer: not reached\n");
        for (;;) {
            HAND_AWAIT_CATCHING(3, channel_->receive(this, &got_))
            if (err_) {
                std::printf("outer: receive failed: %s\n", what(err_).c_str());
                break;
            }
            text_ += got_;
            std::printf("outer: received %s\n", got_.c_str());
        }
        HAND_AWAIT(4, deferred_->await(this))
        total_ += *static_cast<int*>(tmp_);
        std::printf("outer: deferred = %d, text=%s\n", *static_cast<int*>(tmp_), text_.c_str());
        _label = nullptr;
        return box_int(total_);
    }
};

class Sender : public ContinuationImpl {
    Counted counted_;
    Channel<std::string>* channel_;
    Deferred<int>* deferred_;
    int i_ = 0;
    void* tmp_ = nullptr;

public:
    Sender(Continuation* completion, Channel<std::string>* channel, Deferred<int>* deferred)
        : ContinuationImpl(completion), channel_(channel), deferred_(deferred) {}
    void* invoke_suspend(Result<void*> result) override {
        if (_label) goto *_label;
        for (i_ = 0; i_ < 3; ++i_) {
            HAND_AWAIT(0, yield_now(this))
            channel_->send(std::string(1, static_cast<char>('x' + i_)) + "-long-enough-to-be-on-the-heap");
            std::printf("sender: sent %d\n", i_);
        }
        HAND_AWAIT(1, yield_now(this))
        std::printf("sender: closing\n");
        channel_->close();
        HAND_AWAIT(2, yield_now(this))
        std::printf("sender: completing the deferred\n");
        deferred_->complete(1000);
        _label = nullptr;
        return nullptr;
    }
};

class Sleeper : public ContinuationImpl {
    Counted counted_;
    std::string* log_;
    void* tmp_ = nullptr;
    std::exception_ptr err_;

public:
    Sleeper(Continuation* completion, std::string* log) : ContinuationImpl(completion), log_(log) {}
    void* invoke_suspend(Result<void*> result) override {
        if (_label) goto *_label;
        for (;;) {
            HAND_AWAIT_CATCHING(0, yield_now(this))
            if (err_) {
                *log_ += what(err_);
                std::rethrow_exception(err_);
            }
        }
    }
};

int main() {
    {
        EventLoop loop;
        Channel<std::string> channel;
        Deferred<int> deferred;
        ResultHolder outer_done, sender_done;
        loop.launch<Outer>(&outer_done, &channel, &deferred);
        std::size_t n = loop.run();
        std::printf("phase 1 ran %zu, live=%d\n", n, live);
        loop.launch<Sender>(&sender_done, &channel, &deferred);
        n = loop.run();
        std::printf("phase 2 ran %zu: outer=%ld sender done=%d live=%d\n", n,
                    static_cast<long>(unbox_int(outer_done.result().get_or_throw())), sender_done.done() ? 1 : 0,
                    live);

        std::string log;
        FunctionCompletion report([&log](Result<void*> r) { log += r.is_failure() ? " -> failure" : " -> value"; });
        loop.launch<Sleeper>(&report, &log);
        loop.run_one();
        loop.run_one();
        loop.cancel_pending();
        loop.run();
        std::printf("sleeper: %s, live=%d\n", log.c_str(), live);
    }
    std::printf("end live=%d\n", live);
    return live == 0 ? 0 : 1;
}

// EXPECT:
// outer: inner(1,2) = 4
// outer: inner(100,0) = 100, live=1
// outer: sync exception: negative base
// outer: async exception: unlucky, live=1
// phase 1 ran 5, live=1
// sender: sent 0
// outer: received x-long-enough-to-be-on-the-heap
// sender: sent 1
// outer: received y-long-enough-to-be-on-the-heap
// sender: sent 2
// outer: received z-long-enough-to-be-on-the-heap
// sender: closing
// outer: receive failed: channel was closed
// sender: completing the deferred
// outer: deferred = 1000, text=x-long-enough-to-be-on-the-heapy-long-enough-to-be-on-the-heapz-long-enough-to-be-on-the-heap
// phase 2 ran 11: outer=1104 sender done=1 live=0
// sleeper: coroutine cancelled -> failure, live=0
// end live=0
