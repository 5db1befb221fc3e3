// kotlinx/coroutines/Result.hpp - the outcome a continuation is resumed with.
//
// Result<T> holds either a value of type T or an exception (std::exception_ptr), like
// kotlin.Result. Suspend functions are resumed with Result<void*>: the value a suspending call
// produced, or the exception it failed with (rethrown by get_or_throw() right after the
// suspend point, so it propagates like an exception thrown by the call itself).
//
// T must be default-constructible (the value member exists in both states).
#pragma once

#include <exception>
#include <utility>

namespace kotlinx::coroutines {

template <class T>
class Result {
public:
    Result() = default;

    static Result success(T value) {
        Result r;
        r.value_ = std::move(value);
        return r;
    }

    static Result failure(std::exception_ptr error) {
        Result r;
        r.error_ = std::move(error);
        return r;
    }

    /// The failure of the exception currently being handled (call inside a catch block).
    static Result failure_from_current() { return failure(std::current_exception()); }

    bool is_success() const noexcept { return !error_; }
    bool is_failure() const noexcept { return static_cast<bool>(error_); }

    /// The value, or rethrows the exception.
    const T& get_or_throw() const& {
        if (error_) std::rethrow_exception(error_);
        return value_;
    }
    T get_or_throw() && {
        if (error_) std::rethrow_exception(error_);
        return std::move(value_);
    }

    /// The value if successful, else `fallback`.
    T get_or_default(T fallback) const {
        return error_ ? std::move(fallback) : value_;
    }

    /// The exception, or null on success.
    const std::exception_ptr& exception() const noexcept { return error_; }

private:
    T value_{};
    std::exception_ptr error_;
};

}  // namespace kotlinx::coroutines
