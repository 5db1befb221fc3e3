// Shared by the differential programs: a lazy task<T> holding a value, awaited by symmetric
// transfer in both directions (into the child, and back to the parent at final suspend).
#pragma once
#include <coroutine>
#include <exception>
#include <utility>

template <class T>
class task {
public:
  struct promise_type {
    T value{};
    std::coroutine_handle<> continuation = std::noop_coroutine();
    task get_return_object() noexcept {
      return task(std::coroutine_handle<promise_type>::from_promise(*this));
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    struct final_awaiter {
      bool await_ready() const noexcept { return false; }
      std::coroutine_handle<> await_suspend(std::coroutine_handle<promise_type> h) const noexcept {
        return h.promise().continuation;
      }
      void await_resume() const noexcept {}
    };
    final_awaiter final_suspend() noexcept { return {}; }
    void return_value(T v) noexcept { value = v; }
    void unhandled_exception() noexcept { std::terminate(); }
  };
  explicit task(std::coroutine_handle<promise_type> h) : h_(h) {}
  task(task&& o) noexcept : h_(std::exchange(o.h_, {})) {}
  ~task() {
    if (h_) h_.destroy();
  }
  bool await_ready() const noexcept { return false; }
  std::coroutine_handle<> await_suspend(std::coroutine_handle<> c) noexcept {
    h_.promise().continuation = c;
    return h_;
  }
  T await_resume() noexcept { return h_.promise().value; }
  T run() {
    h_.resume();
    if (!h_.done()) std::terminate();
    return h_.promise().value;
  }

private:
  std::coroutine_handle<promise_type> h_;
};
