// kotlinx/coroutines/Continuation.hpp - continuations, COROUTINE_SUSPENDED and the resume loop.
//
// This header has no transform markers: it can be used by code that is not transformed (for
// example a hand-written state machine). Suspend functions written with the kxs macros include
// kotlinx/coroutines/dsl/Suspend.hpp, which includes this.
//
// Calling convention (as in Kotlin/Native): a suspending call takes the caller's continuation and
// returns a `void*`: either its value, or COROUTINE_SUSPENDED, in which case it has arranged for
// the continuation it was given to be resumed later (exactly once) with a Result<void*>.
//
// OWNERSHIP OF CONTINUATION OBJECTS
// A ContinuationImpl is owned in one of two ways, fixed when it is created:
//
//  * Owned by its call (created by call_suspend<C>(), start_coroutine<C>() or
//    EventLoop::launch<C>(), which use new_continuation<C>()): the runtime deletes it exactly
//    once, when its invoke_suspend completes (returns a value or throws):
//      - call_suspend<C>() deletes it at once if the first run completes without suspending;
//      - otherwise ContinuationImpl::resume_with (the resume loop) deletes it right after its
//        invoke_suspend completed, before passing the outcome on to its completion.
//    Whoever holds a pointer to a suspended one (a dispatcher queue, a channel or Deferred
//    waiter list) must resume it exactly once and never delete it.
//
//  * Owned by its creator (constructed directly, on the stack or as a member): the runtime never
//    deletes it; its creator destroys it after it completed, or while it is suspended.
//
// Completions that are not ContinuationImpl (ResultHolder, FunctionCompletion, user classes) are
// never deleted by the runtime.
//
// Destroying a suspended ContinuationImpl frees its spill frame (std::free(_kxs_frame)), but the
// destructors of the C++ locals the transform moved into that frame do NOT run, and its
// completion is not resumed. To cancel a suspended coroutine so that its locals are destroyed,
// resume it with an exception (resume_with(Result<void*>::failure(...)), e.g. a
// CancellationException): the exception is thrown at the suspend point, the function's own
// unwinding destroys its locals, and the failure travels up its completions (deleting every
// call-owned frame on the way).
#pragma once

#include <cstdint>
#include <cstdlib>
#include <exception>
#include <new>
#include <stdexcept>
#include <utility>

#include "kotlinx/coroutines/Result.hpp"

// The object whose address is COROUTINE_SUSPENDED. A weak definition in every translation unit
// that includes this header: the linker keeps one, so there is exactly one address program-wide
// (in one executable or shared object; across shared objects the dynamic linker binds every
// reference to the first definition). Its visibility is default even under -fvisibility=hidden:
// a hidden copy per shared object would give a library's suspend functions another
// COROUTINE_SUSPENDED than the program's resume loop compares with. The transform returns
// `ptr @__kxs_coroutine_suspended` at each suspend point.
extern "C" {
__attribute__((weak, visibility("default"))) char __kxs_coroutine_suspended = 0;
}

/// What a suspending call returns when it suspended.
#define COROUTINE_SUSPENDED (static_cast<void*>(&::__kxs_coroutine_suspended))

namespace kotlinx::coroutines {

namespace intrinsics {
inline void* coroutine_suspended() noexcept { return COROUTINE_SUSPENDED; }
inline bool is_coroutine_suspended(const void* value) noexcept { return value == COROUTINE_SUSPENDED; }
}  // namespace intrinsics

/// Values travel through `void*` (Kotlin's `Any?`). Small integers are passed by value in the
/// pointer (never equal to COROUTINE_SUSPENDED in practice: that is the address of an object);
/// anything larger is passed as a pointer to storage that outlives the resumption (see Deferred,
/// Channel).
inline void* box_int(std::intptr_t value) noexcept { return reinterpret_cast<void*>(value); }
inline std::intptr_t unbox_int(const void* value) noexcept { return reinterpret_cast<std::intptr_t>(value); }

class ContinuationImpl;

/// Something that can be resumed with the outcome of a suspending call (kotlin Continuation).
class Continuation {
public:
    Continuation() = default;
    Continuation(const Continuation&) = delete;
    Continuation& operator=(const Continuation&) = delete;
    virtual ~Continuation() = default;

    virtual void resume_with(Result<void*> result) = 0;

    void resume(void* value) { resume_with(Result<void*>::success(value)); }
    void resume_with_exception(std::exception_ptr error) { resume_with(Result<void*>::failure(std::move(error))); }

    /// `this` if it is a ContinuationImpl (lets the resume loop iterate instead of recursing).
    virtual ContinuationImpl* as_continuation_impl() noexcept { return nullptr; }
};

/// The continuation of a suspend function: its object holds the function's parameters, its
/// resume address (_label) and its spill frame (_kxs_frame), both managed by the transform.
///
///   class Fn : public ContinuationImpl {
///       int n;                                      // parameters
///   public:
///       Fn(Continuation* completion, int n) : ContinuationImpl(completion), n(n) {}
///       void* invoke_suspend(Result<void*> result) override {
///           coroutine_begin(this);
///           ...  coroutine_yield(this, yield_now(this));  ...
///           coroutine_end(this);
///       }
///   };
class ContinuationImpl : public Continuation {
public:
    /// Resume address: null before the first suspend and after completion (set by the macros,
    /// read by the transform's entry dispatch). A derived class may declare its own `_label`
    /// (the macros use `(c)->_label`); this one then stays unused.
    void* _label = nullptr;
    /// The spill frame the transform allocates with malloc on first entry and frees on completion.
    void* _kxs_frame = nullptr;
    /// Who gets this function's outcome.
    Continuation* completion_ = nullptr;

    explicit ContinuationImpl(Continuation* completion) noexcept : completion_(completion) {}
    ~ContinuationImpl() override { std::free(_kxs_frame); }

    /// The body of the suspend function: returns its value, or COROUTINE_SUSPENDED, or throws.
    /// `result` is what the last suspending call was resumed with (success(nullptr) on the first
    /// run); the macros name it `result`, so keep that parameter name.
    virtual void* invoke_suspend(Result<void*> result) = 0;

    /// Kotlin's BaseContinuationImpl.resumeWith: run invoke_suspend; stop if it suspended;
    /// otherwise hand its outcome (value or exception) to its completion, iterating over
    /// completions that are ContinuationImpls, and deleting call-owned frames as they complete.
    void resume_with(Result<void*> result) final;

    ContinuationImpl* as_continuation_impl() noexcept final { return this; }

    /// Was this object created by new_continuation (deleted by the runtime when it completes)?
    bool owned_by_call() const noexcept { return _kxs_owned; }

private:
    template <class C, class... Args>
    friend C* new_continuation(Continuation* completion, Args&&... args);

    bool _kxs_owned = false;
};

/// Allocates a call-owned continuation `C(completion, args...)` (see OWNERSHIP above).
template <class C, class... Args>
C* new_continuation(Continuation* completion, Args&&... args) {
    C* c = new C(completion, std::forward<Args>(args)...);
    static_cast<ContinuationImpl*>(c)->_kxs_owned = true;
    return c;
}

namespace detail {
inline void complete(ContinuationImpl* c) noexcept {
    if (c->owned_by_call()) delete c;
}
}  // namespace detail

inline void ContinuationImpl::resume_with(Result<void*> result) {
    // `this` may be deleted below: only locals are used after the first iteration starts.
    ContinuationImpl* current = this;
    Result<void*> param = std::move(result);
    for (;;) {
        Continuation* completion = current->completion_;
        Result<void*> outcome;
        try {
            void* value = current->invoke_suspend(std::move(param));
            if (value == COROUTINE_SUSPENDED) return;
            outcome = Result<void*>::success(value);
        } catch (...) {
            outcome = Result<void*>::failure(std::current_exception());
        }
        detail::complete(current);
        if (completion == nullptr) {
            // Nobody waits for this coroutine: an exception leaves through the resumer
            // (EventLoop::run() lets it propagate to its caller).
            if (outcome.is_failure()) std::rethrow_exception(outcome.exception());
            return;
        }
        if (ContinuationImpl* next = completion->as_continuation_impl()) {
            current = next;
            param = std::move(outcome);
            continue;
        }
        completion->resume_with(std::move(outcome));
        return;
    }
}

/// A suspending call of the suspend function C: creates a call-owned C(completion, args...) and
/// runs it until it first suspends. Returns its value if it completed (the object is deleted,
/// an exception propagates to the caller as from an ordinary call), or COROUTINE_SUSPENDED (the
/// object then belongs to the suspended chain and resumes `completion` when it completes).
///
///   int v = unbox_int(coroutine_await(this, call_suspend<Child>(this, 42)));
template <class C, class... Args>
void* call_suspend(Continuation* completion, Args&&... args) {
    C* c = new_continuation<C>(completion, std::forward<Args>(args)...);
    void* value;
    try {
        value = c->invoke_suspend(Result<void*>::success(nullptr));
    } catch (...) {
        delete c;
        throw;
    }
    if (value != COROUTINE_SUSPENDED) delete c;
    return value;
}

/// Starts a call-owned coroutine C(completion, args...) now: it runs until it first suspends;
/// its outcome goes to `completion` (which may be null: see resume_with).
template <class C, class... Args>
void start_coroutine(Continuation* completion, Args&&... args) {
    new_continuation<C>(completion, std::forward<Args>(args)...)->resume_with(Result<void*>::success(nullptr));
}

/// Starts a creator-owned coroutine now.
inline void start_coroutine(ContinuationImpl& c) { c.resume_with(Result<void*>::success(nullptr)); }

/// A top-level completion that records the outcome.
class ResultHolder final : public Continuation {
public:
    void resume_with(Result<void*> result) override {
        result_ = std::move(result);
        done_ = true;
    }
    bool done() const noexcept { return done_; }
    const Result<void*>& result() const noexcept { return result_; }

private:
    Result<void*> result_;
    bool done_ = false;
};

/// A top-level completion that calls `f(Result<void*>)`.
template <class F>
class FunctionCompletion final : public Continuation {
public:
    explicit FunctionCompletion(F f) : f_(std::move(f)) {}
    void resume_with(Result<void*> result) override { f_(std::move(result)); }

private:
    F f_;
};

/// Thrown into a coroutine to cancel it (see OWNERSHIP above).
class CancellationException : public std::runtime_error {
public:
    CancellationException() : std::runtime_error("coroutine cancelled") {}
    explicit CancellationException(const char* what) : std::runtime_error(what) {}
};

}  // namespace kotlinx::coroutines
