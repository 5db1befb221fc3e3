// kxs: the label slot is found from the code, not assumed at offset 0.
//  * Square: derives from an abstract Shape with more virtual functions; _label is after the
//    vtable pointer; the body makes virtual calls after each resume.
//  * Labeled: declares its own `_label` after other fields; the macros use it (through
//    `(c)->_label`) and ContinuationImpl::_label stays null.
//  * Multi: another polymorphic base comes first, so the ContinuationImpl subobject is not at
//    offset 0 and invoke_suspend is called through a this-adjusting thunk. One instance is
//    creator-owned (on main's stack), one call-owned (deleted through ContinuationImpl*).
// Also checks the slots while suspended (label and frame set) and after completion (both null).
#include "kotlinx/coroutines/dsl/Suspend.hpp"

#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>

using namespace kotlinx::coroutines;

class Shape : public ContinuationImpl {
public:
    explicit Shape(Continuation* completion) : ContinuationImpl(completion) {}
    virtual const char* name() const = 0;
    virtual double area() const = 0;
};

class Square : public Shape {
    double side_;
    int id_;

public:
    Square(Continuation* completion, double side, int id) : Shape(completion), side_(side), id_(id) {}
    const char* name() const override { return "square"; }
    double area() const override { return side_ * side_; }

    void* invoke_suspend(Result<void*> result) override {
        coroutine_begin(this);
        std::string trace = name();
        for (int i = 0; i < 2; ++i) {
            coroutine_yield(this, yield_now(this));
            side_ += 1;
            trace += "+";
            std::printf("%s#%d i=%d area=%.1f trace=%s\n", name(), id_, i, area(), trace.c_str());
        }
        coroutine_return(this, box_int(static_cast<std::intptr_t>(area())));
    }
};

class Labeled : public Shape {
public:
    int tag_;
    std::string text_;
    void* _label = nullptr;  // hides ContinuationImpl::_label: the macros store here
    double radius_;

    Labeled(Continuation* completion, int tag, double radius)
        : Shape(completion), tag_(tag), text_("labeled"), radius_(radius) {}
    const char* name() const override { return "labeled"; }
    double area() const override { return 3.0 * radius_ * radius_; }

    void* invoke_suspend(Result<void*> result) override {
        coroutine_begin(this);
        std::string acc;
        for (std::size_t i = 0; i < 3; ++i) {
            acc += text_[i];
            coroutine_yield(this, yield_now(this));
            radius_ += 1;
            std::printf("%s tag=%d i=%zu acc=%s area=%.1f\n", name(), tag_, i, acc.c_str(), area());
        }
        coroutine_end(this);
    }
};

class Named {
public:
    explicit Named(std::string name) : name_(std::move(name)) {}
    virtual ~Named() = default;
    virtual std::string describe() const { return "named " + name_; }

protected:
    std::string name_;
};

class Multi : public Named, public ContinuationImpl {
    int hits_ = 0;

public:
    Multi(Continuation* completion, std::string name) : Named(std::move(name)), ContinuationImpl(completion) {}
    std::string describe() const override { return "multi " + name_ + " hits=" + std::to_string(hits_); }

    void* invoke_suspend(Result<void*> result) override {
        coroutine_begin(this);
        int local = 10;
        for (int i = 0; i < 2; ++i) {
            ++hits_;
            local += i + 1;
            coroutine_yield(this, yield_now(this));
            std::printf("%s local=%d\n", describe().c_str(), local);
        }
        coroutine_return(this, box_int(local));
    }
};

static long offset_of(const void* member, const void* object) {
    return static_cast<const char*>(member) - static_cast<const char*>(object);
}

int main() {
    EventLoop loop;
    ResultHolder square_done, labeled_done, m1_done, m2_done;
    Square square(&square_done, 2.0, 1);
    Labeled labeled(&labeled_done, 7, 1.0);
    Multi m1(&m1_done, "m1");
    std::printf("offsets: square _label>0=%d, Labeled::_label after ContinuationImpl::_label=%d, "
                "multi ContinuationImpl subobject>0=%d\n",
                offset_of(&square._label, &square) > 0 ? 1 : 0,
                offset_of(&labeled._label, &labeled) > offset_of(&labeled.ContinuationImpl::_label, &labeled) ? 1 : 0,
                offset_of(static_cast<ContinuationImpl*>(&m1), &m1) > 0 ? 1 : 0);

    start_coroutine(square);
    start_coroutine(labeled);
    loop.dispatch(&m1, Result<void*>::success(nullptr));
    loop.launch<Multi>(&m2_done, "m2");
    std::printf("suspended: square label set=%d frame set=%d, labeled own label set=%d base label null=%d\n",
                square._label != nullptr ? 1 : 0, square._kxs_frame != nullptr ? 1 : 0,
                labeled._label != nullptr ? 1 : 0, labeled.ContinuationImpl::_label == nullptr ? 1 : 0);

    std::size_t n = loop.run();
    std::printf("square=%ld labeled done=%d m1=%ld m2=%ld ran=%zu\n",
                static_cast<long>(unbox_int(square_done.result().get_or_throw())), labeled_done.done() ? 1 : 0,
                static_cast<long>(unbox_int(m1_done.result().get_or_throw())),
                static_cast<long>(unbox_int(m2_done.result().get_or_throw())), n);
    std::printf("after: square label null=%d frame null=%d, labeled own label null=%d frame null=%d\n",
                square._label == nullptr ? 1 : 0, square._kxs_frame == nullptr ? 1 : 0,
                labeled._label == nullptr ? 1 : 0, labeled._kxs_frame == nullptr ? 1 : 0);
    return 0;
}

// EXPECT:
// offsets: square _label>0=1, Labeled::_label after ContinuationImpl::_label=1, multi ContinuationImpl subobject>0=1
// suspended: square label set=1 frame set=1, labeled own label set=1 base label null=1
// square#1 i=0 area=9.0 trace=square+
// labeled tag=7 i=0 acc=l area=12.0
// square#1 i=1 area=16.0 trace=square++
// labeled tag=7 i=1 acc=la area=27.0
// multi m1 hits=1 local=11
// multi m2 hits=1 local=11
// labeled tag=7 i=2 acc=lab area=48.0
// multi m1 hits=2 local=13
// multi m2 hits=2 local=13
// square=16 labeled done=1 m1=13 m2=13 ran=11
// after: square label null=1 frame null=1, labeled own label null=1 frame null=1
