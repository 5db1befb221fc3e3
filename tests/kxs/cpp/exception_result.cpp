// kxs: exceptions delivered through Result on resume.
//  1. Catcher: a failure resumed into a suspend point inside try/catch is thrown there; the
//     try block's local is destroyed by unwinding, the handler runs, the function goes on.
//  2. Propagator -> Failer: a Deferred completed exceptionally resumes Failer with a failure that
//     nobody catches: it unwinds Failer (destroying its locals), the resume loop hands the failure
//     to Propagator, which rethrows it at its own suspend point, and finally the top completion
//     gets it. Both call-owned frames are deleted.
//  3. Parker (creator-owned, on main's stack) is cancelled by resuming it with a
//     CancellationException by hand; its locals are destroyed, its completion gets the failure.
#include "kotlinx/coroutines/dsl/Suspend.hpp"

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

struct Noisy {
    std::string name;
    ~Noisy() { std::printf("~Noisy(%s)\n", name.c_str()); }
};

class Catcher : public ContinuationImpl {
    Counted counted_;

public:
    explicit Catcher(Continuation* completion) : ContinuationImpl(completion) {}

    void* invoke_suspend(Result<void*> result) override {
        coroutine_begin(this);
        std::string log = "start";
        for (int i = 0; i < 2; ++i) {
            try {
                Noisy guard{"try" + std::to_string(i)};
                void* call = i == 0 ? yield_failure(this, std::make_exception_ptr(std::runtime_error("boom0")))
                                    : yield_value(this, box_int(42));
                std::intptr_t v = unbox_int(coroutine_await(this, call));
                std::printf("catcher %d got %ld\n", i, static_cast<long>(v));
                log += ",value";
            } catch (const std::runtime_error& e) {
                std::printf("catcher %d caught %s\n", i, e.what());
                log += ",caught";
            }
        }
        std::printf("catcher log=%s\n", log.c_str());
        coroutine_end(this);
    }
};

class Failer : public ContinuationImpl {
    Counted counted_;
    Deferred<int>* deferred_;

public:
    Failer(Continuation* completion, Deferred<int>* deferred) : ContinuationImpl(completion), deferred_(deferred) {}

    void* invoke_suspend(Result<void*> result) override {
        coroutine_begin(this);
        Noisy guard{"failer"};
        int v = *static_cast<int*>(coroutine_await(this, deferred_->await(this)));
        std::printf("failer got %d (not reached)\n", v);
        coroutine_return(this, box_int(v));
    }
};

class Propagator : public ContinuationImpl {
    Counted counted_;
    Deferred<int>* deferred_;

public:
    Propagator(Continuation* completion, Deferred<int>* deferred)
        : ContinuationImpl(completion), deferred_(deferred) {}

    void* invoke_suspend(Result<void*> result) override {
        coroutine_begin(this);
        Noisy guard{"propagator"};
        std::intptr_t v = unbox_int(coroutine_await(this, call_suspend<Failer>(this, deferred_)));
        std::printf("propagator got %ld (not reached)\n", static_cast<long>(v));
        coroutine_return(this, box_int(v));
    }
};

static Continuation* parked = nullptr;
static void* park(Continuation* c) {
    parked = c;
    return COROUTINE_SUSPENDED;
}

class Parker : public ContinuationImpl {
    Counted counted_;

public:
    explicit Parker(Continuation* completion) : ContinuationImpl(completion) {}

    void* invoke_suspend(Result<void*> result) override {
        coroutine_begin(this);
        Noisy guard{"parker"};
        std::string note = "a string that is long enough to live on the heap";
        coroutine_yield(this, park(this));
        std::printf("parker resumed normally (not reached) %s\n", note.c_str());
        coroutine_end(this);
    }
};

static void report(const char* who, const Result<void*>& r) {
    try {
        (void)r.get_or_throw();
        std::printf("%s: value\n", who);
    } catch (const std::exception& e) {
        std::printf("%s: failure: %s\n", who, e.what());
    }
}

int main() {
    EventLoop loop;

    ResultHolder catcher_done;
    loop.launch<Catcher>(&catcher_done);
    loop.run();
    std::printf("catcher done=%d failure=%d live=%d\n", catcher_done.done() ? 1 : 0,
                catcher_done.result().is_failure() ? 1 : 0, live);

    Deferred<int> deferred(loop);
    FunctionCompletion completion([](Result<void*> r) { report("propagator completion", r); });
    start_coroutine<Propagator>(&completion, &deferred);
    std::printf("propagator suspended, live=%d\n", live);
    deferred.complete_exceptionally(std::make_exception_ptr(std::logic_error("deferred failed")));
    std::printf("completed the deferred exceptionally\n");
    loop.run();
    std::printf("after propagation live=%d\n", live);

    {
        ResultHolder parker_done;
        Parker parker(&parker_done);
        start_coroutine(parker);
        std::printf("parker suspended: %d\n", parked == &parker ? 1 : 0);
        parked->resume_with(Result<void*>::failure(std::make_exception_ptr(CancellationException())));
        report("parker completion", parker_done.result());
    }
    std::printf("end live=%d\n", live);
    return 0;
}

// EXPECT:
// ~Noisy(try0)
// catcher 0 caught boom0
// catcher 1 got 42
// ~Noisy(try1)
// catcher log=start,caught,value
// catcher done=1 failure=0 live=0
// propagator suspended, live=2
// completed the deferred exceptionally
// ~Noisy(failer)
// ~Noisy(propagator)
// propagator completion: failure: deferred failed
// after propagation live=0
// parker suspended: 1
// ~Noisy(parker)
// parker completion: failure: coroutine cancelled
// end live=0
