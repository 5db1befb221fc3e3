// The counter program's shared header: a generator type and the step the test edits (the objects
// that include this header must rebuild, and the output must change).
#pragma once
#include <coroutine>
#include <exception>
#include <utility>

constexpr int kStep = 1;

struct counter {
  struct promise_type {
    int current = 0;
    counter get_return_object() noexcept {
      return counter(std::coroutine_handle<promise_type>::from_promise(*this));
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    std::suspend_always yield_value(int v) noexcept {
      current = v;
      return {};
    }
    void return_void() noexcept {}
    void unhandled_exception() { std::terminate(); }
  };
  explicit counter(std::coroutine_handle<promise_type> h) : h(h) {}
  counter(counter&& o) noexcept : h(std::exchange(o.h, {})) {}
  ~counter() {
    if (h) h.destroy();
  }
  bool next() {
    h.resume();
    return !h.done();
  }
  int value() const { return h.promise().current; }
  std::coroutine_handle<promise_type> h;
};

counter count_to(int limit);
