// kxs: suspend functions calling suspend functions, 3 levels deep (Outer -> Middle -> Inner).
// Each callee is created by call_suspend with its caller as completion; when the innermost one
// is resumed from the event loop and completes, the resume loop deletes it and resumes its
// caller with its value, and so on up to main's ResultHolder. One call completes without
// suspending (its value comes straight back from call_suspend). Every frame is freed (live=0).
#include "kotlinx/coroutines/dsl/Suspend.hpp"

#include <cstdint>
#include <cstdio>
#include <string>

using namespace kotlinx::coroutines;

static int live = 0;
struct Counted {
    Counted() { ++live; }
    ~Counted() { --live; }
};

class Inner : public ContinuationImpl {
    Counted counted_;
    int base_;
    int steps_;

public:
    Inner(Continuation* completion, int base, int steps) : ContinuationImpl(completion), base_(base), steps_(steps) {}

    void* invoke_suspend(Result<void*> result) override {
        coroutine_begin(this);
        std::intptr_t acc = base_;
        for (int k = 0; k < steps_; ++k) {
            acc += unbox_int(coroutine_await(this, yield_value(this, box_int(k + 1))));
            std::printf("  inner(%d) step %d acc=%ld\n", base_, k, static_cast<long>(acc));
        }
        std::printf("  inner(%d) returns %ld\n", base_, static_cast<long>(acc));
        coroutine_return(this, box_int(acc));
    }
};

class Middle : public ContinuationImpl {
    Counted counted_;
    int x_;

public:
    Middle(Continuation* completion, int x) : ContinuationImpl(completion), x_(x) {}

    void* invoke_suspend(Result<void*> result) override {
        coroutine_begin(this);
        std::string tag = "m" + std::to_string(x_);
        std::intptr_t a = unbox_int(coroutine_await(this, call_suspend<Inner>(this, x_, 2)));
        std::printf(" %s got a=%ld\n", tag.c_str(), static_cast<long>(a));
        std::intptr_t b = unbox_int(coroutine_await(this, call_suspend<Inner>(this, x_ * 100, 0)));
        std::printf(" %s got b=%ld\n", tag.c_str(), static_cast<long>(b));
        coroutine_return(this, box_int(a + b));
    }
};

class Outer : public ContinuationImpl {
    Counted counted_;

public:
    explicit Outer(Continuation* completion) : ContinuationImpl(completion) {}

    void* invoke_suspend(Result<void*> result) override {
        coroutine_begin(this);
        std::intptr_t total = 0;
        for (int x = 1; x <= 2; ++x) {
            std::intptr_t m = unbox_int(coroutine_await(this, call_suspend<Middle>(this, x)));
            std::printf("outer got %ld from middle(%d)\n", static_cast<long>(m), x);
            total += m;
        }
        std::printf("outer returns %ld\n", static_cast<long>(total));
        coroutine_return(this, box_int(total));
    }
};

int main() {
    EventLoop loop;
    ResultHolder done;
    start_coroutine<Outer>(&done);
    std::printf("started, live=%d\n", live);
    std::size_t n = loop.run();
    std::printf("ran %zu, done=%d result=%ld live=%d\n", n, done.done() ? 1 : 0,
                static_cast<long>(unbox_int(done.result().get_or_throw())), live);
    return 0;
}

// EXPECT:
// started, live=3
//   inner(1) step 0 acc=2
//   inner(1) step 1 acc=4
//   inner(1) returns 4
//  m1 got a=4
//   inner(100) returns 100
//  m1 got b=100
// outer got 104 from middle(1)
//   inner(2) step 0 acc=3
//   inner(2) step 1 acc=5
//   inner(2) returns 5
//  m2 got a=5
//   inner(200) returns 200
//  m2 got b=200
// outer got 205 from middle(2)
// outer returns 309
// ran 4, done=1 result=309 live=0
