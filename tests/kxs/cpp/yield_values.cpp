// kxs: coroutine_await yields values: from calls resumed through the event loop with a value,
// from nested awaits in one expression, from a call that completes without suspending, and from
// a resume by main with a value.
#include "kotlinx/coroutines/dsl/Suspend.hpp"

#include <cstdint>
#include <cstdio>

using namespace kotlinx::coroutines;

// A suspending call that completes at once.
static void* ready(std::intptr_t v) { return box_int(v); }

// Suspends; main resumes the continuation by hand.
static Continuation* parked = nullptr;
static void* park(Continuation* c) {
    parked = c;
    return COROUTINE_SUSPENDED;
}

class Producer : public ContinuationImpl {
    int count_;

public:
    Producer(Continuation* completion, int count) : ContinuationImpl(completion), count_(count) {}

    void* invoke_suspend(Result<void*> result) override {
        coroutine_begin(this);
        std::intptr_t sum = 0;
        for (int i = 1; i <= count_; ++i) {
            std::intptr_t v = unbox_int(coroutine_await(this, yield_value(this, box_int(i * 10))));
            std::printf("yielded %d -> %ld\n", i, static_cast<long>(v));
            sum += v;
        }
        std::intptr_t nested = unbox_int(coroutine_await(
            this, yield_value(this, box_int(unbox_int(coroutine_await(this, yield_value(this, box_int(5)))) + 1))));
        std::printf("nested -> %ld\n", static_cast<long>(nested));
        sum += nested;
        std::intptr_t r = unbox_int(coroutine_await(this, ready(7)));
        std::printf("ready -> %ld\n", static_cast<long>(r));
        sum += r;
        void* p;
        coroutine_await_into(this, p, park(this));
        std::printf("parked -> %ld\n", static_cast<long>(unbox_int(p)));
        sum += unbox_int(p);
        coroutine_return(this, box_int(sum));
    }
};

int main() {
    EventLoop loop;
    ResultHolder done;
    loop.launch<Producer>(&done, 3);
    std::printf("launched\n");
    std::size_t n = loop.run();
    std::printf("ran %zu, done=%d\n", n, done.done() ? 1 : 0);
    parked->resume(box_int(100));  // runs to completion right here
    std::printf("done=%d sum=%ld\n", done.done() ? 1 : 0, static_cast<long>(unbox_int(done.result().get_or_throw())));
    return 0;
}

// EXPECT:
// launched
// yielded 1 -> 10
// yielded 2 -> 20
// yielded 3 -> 30
// nested -> 6
// ready -> 7
// ran 6, done=0
// parked -> 100
// done=1 sum=173
