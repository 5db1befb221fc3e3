// kotlinx/coroutines/dsl/Suspend.hpp - Kotlin/Native-style suspend functions in C++ (kxs).
//
// A suspend function is the `invoke_suspend` of a ContinuationImpl subclass. Its body calls
// coroutine_begin(this) once, then suspending calls through coroutine_await / coroutine_yield:
//
//   class Sum : public ContinuationImpl {
//       int n;
//   public:
//       Sum(Continuation* completion, int n) : ContinuationImpl(completion), n(n) {}
//       void* invoke_suspend(Result<void*> result) override {
//           coroutine_begin(this);
//           std::string log;                          // plain locals, kept across suspends
//           intptr_t total = 0;
//           for (int i = 0; i < n; ++i) {
//               total += unbox_int(coroutine_await(this, yield_value(this, box_int(i))));
//               log += '.';
//           }
//           coroutine_return(this, box_int(total));
//       }
//   };
//
// The source must go through the llcoro kxs transform (clang -emit-llvm, `llcoro`, then compile
// the IR; see the `llcoro cc` launcher and the CMake modules). The transform
//   * turns coroutine_begin into the entry dispatch: on every call after the first it jumps to
//     the resume address in `_label`; code before coroutine_begin runs on every entry;
//   * turns each suspend point into "save live state, return COROUTINE_SUSPENDED"; the next call
//     continues right after it (with the new `result`);
//   * keeps every local that lives across a suspend in a spill frame it mallocs into
//     `_kxs_frame`, and frees it (nulling `_label` and `_kxs_frame`) when the function returns.
// So locals with constructors and destructors, loops and scopes work across suspends, as long as:
//   * `c` is the continuation object itself (`this`), evaluated several times;
//   * the invoke_suspend parameter is named `result`;
//   * no suspend point is inside a catch handler or in a destructor/cleanup (the transform
//     rejects suspending while an exception is handled), nor in a lambda (another function);
//   * nothing else uses `goto *` or labels named _kxs_resume_N in the function.
// Without the transform a program fails to link: `__kxs_suspend_point` and `__kxs_begin` are
// declared here and deliberately defined nowhere.
//
// Build flags: clang only (labels as values, statement expressions), C++17 or later,
// -Wno-gnu-label-as-value (the `&&label` extension warns under -pedantic otherwise).
#pragma once

#include "kotlinx/coroutines/Channel.hpp"
#include "kotlinx/coroutines/Continuation.hpp"
#include "kotlinx/coroutines/Deferred.hpp"
#include "kotlinx/coroutines/Dispatcher.hpp"
#include "kotlinx/coroutines/Result.hpp"

#if !defined(__clang__)
#error "kxs suspend functions need clang (labels as values + the llcoro kxs transform)"
#endif

// The transform markers (never defined: an untransformed build fails to link). noexcept, so that
// clang emits `call` and not `invoke` inside try blocks.
extern "C" {
/// Start of a suspend function: the entry dispatch goes here.
void __kxs_begin(void** label_slot, void** frame_slot) noexcept;
/// The function suspends here; the next call continues right after it.
void __kxs_suspend_point(int id) noexcept;
}

#define _KXS_CONCAT_(a, b) a##b
#define _KXS_CONCAT(a, b) _KXS_CONCAT_(a, b)

/// Once, at the top of invoke_suspend, after the code that must run on every entry.
#define coroutine_begin(c) ::__kxs_begin(&(c)->_label, &(c)->_kxs_frame)

/// The suspend point proper: remember where to resume, mark, resume here. `n` is a literal
/// unique in the translation unit (from __COUNTER__).
#define _KXS_SUSPEND_AT(c, n)                        \
    (c)->_label = &&_KXS_CONCAT(_kxs_resume_, n);    \
    ::__kxs_suspend_point(n);                        \
    _KXS_CONCAT(_kxs_resume_, n) :

/// `coroutine_yield(c, call)`: a suspending call whose value is discarded. If the call returned
/// COROUTINE_SUSPENDED, the function suspends; when resumed, a failure is thrown here.
#define coroutine_yield(c, ...) _KXS_YIELD(c, __COUNTER__, __VA_ARGS__)
#define _KXS_YIELD(c, n, ...) _KXS_YIELD_N(c, n, __VA_ARGS__)
#define _KXS_YIELD_N(c, n, ...)                                                              \
    do {                                                                                     \
        void* _KXS_CONCAT(_kxs_tmp_, n) = (__VA_ARGS__);                                     \
        if (::kotlinx::coroutines::intrinsics::is_coroutine_suspended(_KXS_CONCAT(_kxs_tmp_, n))) { \
            _KXS_SUSPEND_AT(c, n)                                                            \
            (void)(result).get_or_throw();                                                   \
        }                                                                                    \
    } while (0)

/// `coroutine_await(c, call)`: a suspending call as an expression of type void*: the call's value
/// if it did not suspend, else (after suspending) the value it was resumed with; a failure is
/// thrown here. (A GNU statement expression.)
#define coroutine_await(c, ...) _KXS_AWAIT(c, __COUNTER__, __VA_ARGS__)
#define _KXS_AWAIT(c, n, ...) _KXS_AWAIT_N(c, n, __VA_ARGS__)
#define _KXS_AWAIT_N(c, n, ...)                                                               \
    (__extension__({                                                                          \
        void* _KXS_CONCAT(_kxs_value_, n) = (__VA_ARGS__);                                    \
        if (::kotlinx::coroutines::intrinsics::is_coroutine_suspended(_KXS_CONCAT(_kxs_value_, n))) { \
            _KXS_SUSPEND_AT(c, n)                                                             \
            _KXS_CONCAT(_kxs_value_, n) = (result).get_or_throw();                            \
        }                                                                                     \
        _KXS_CONCAT(_kxs_value_, n);                                                          \
    }))

/// `coroutine_await_into(c, var, call)`: the same, assigning the value to `var` (a statement).
#define coroutine_await_into(c, var, ...) ((var) = coroutine_await(c, __VA_ARGS__))

/// Completes the function with `value` (a void*; use box_int for integers).
#define coroutine_return(c, value) return ((void)(c), static_cast<void*>(value))

/// Completes the function without a value (nullptr, Kotlin's Unit).
#define coroutine_end(c) coroutine_return(c, nullptr)
