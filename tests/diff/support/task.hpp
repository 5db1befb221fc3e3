// Shared by the differential programs: a lazy task<T> with symmetric-transfer continuation.
#pragma once
#include <coroutine>
#include <exception>
#include <utility>

template <class T>
struct result_holder {
  T value{};
  void return_value(T v) { value = std::move(v); }
  T take() { return std::move(value); }
};
template <>
struct result_holder<void> {
  void return_void() noexcept {}
  void take() {}
};

template <class T = void>
class task {
public:
  struct promise_type : result_holder<T> {
    std::coroutine_handle<> continuation = std::noop_coroutine();
    std::exception_ptr error;
    task get_return_object() noexcept { return task(std::coroutine_handle<promise_type>::from_promise(*this)); }
    std::suspend_always initial_suspend() noexcept { return {}; }
    struct final_awaiter {
      bool await_ready() const noexcept { return false; }
      std::coroutine_handle<> await_suspend(std::coroutine_handle<promise_type> h) const noexcept {
        return h.promise().continuation;
      }
      void await_resume() const noexcept {}
    };
    final_awaiter final_suspend() noexcept { return {}; }
    void unhandled_exception() noexcept { error = std::current_exception(); }
  };
  explicit task(std::coroutine_handle<promise_type> h) : h_(h) {}
  task(task&& o) noexcept : h_(std::exchange(o.h_, {})) {}
  task& operator=(task&& o) noexcept {
    if (this != &o) {
      if (h_) h_.destroy();
      h_ = std::exchange(o.h_, {});
    }
    return *this;
  }
  ~task() {
    if (h_) h_.destroy();
  }
  bool await_ready() const noexcept { return false; }
  std::coroutine_handle<> await_suspend(std::coroutine_handle<> c) noexcept {
    h_.promise().continuation = c;
    return h_;
  }
  T await_resume() {
    if (h_.promise().error) std::rethrow_exception(h_.promise().error);
    return h_.promise().take();
  }
  // Starts the task from non-coroutine code; it must complete synchronously.
  T run() {
    h_.resume();
    if (!h_.done()) std::terminate();
    return await_resume();
  }
  bool done() const { return h_.done(); }

private:
  std::coroutine_handle<promise_type> h_;
};
