// REFUSED: kxs-marker-in-unwind, at the suspend point with id 0 (the first in the file)
// A suspend point inside a catch handler of a try with two throwing calls (a throw expression and a
// call): the handler's dispatch block has two landing pads before it. Suspending there would leave
// the exception caught while other coroutines run on the thread (two of these coroutines then saw
// each other's exception). llcoro refuses it at the marker in the handler; the suspend after the
// handler (id 1) is fine.
#include "kotlinx/coroutines/dsl/Suspend.hpp"

#include <cstdio>
#include <stdexcept>

using namespace kotlinx::coroutines;

[[gnu::noinline]] void may_throw(int x) {
    if (x == 2) throw std::runtime_error("two");
}

class CatchSuspend : public ContinuationImpl {
    int x_;

public:
    CatchSuspend(Continuation* completion, int x) : ContinuationImpl(completion), x_(x) {}

    void* invoke_suspend(Result<void*> result) override {
        coroutine_begin(this);
        try {
            if (x_ == 1) throw std::runtime_error("one");
            may_throw(x_);
        } catch (const std::exception& e) {
            coroutine_yield(this, yield_now(this));
            std::printf("caught %s\n", e.what());
        }
        coroutine_yield(this, yield_now(this));
        coroutine_end(this);
    }
};

int main() {
    EventLoop loop;
    ResultHolder a, b;
    loop.launch<CatchSuspend>(&a, 1);
    loop.launch<CatchSuspend>(&b, 2);
    loop.run();
    return 0;
}
