// Exceptions thrown from generator bodies after several co_yields:
// unhandled_exception stores the exception, the generator runs on to its
// final suspend point, and next() rethrows it into the consumer's loop.
// RAII locals alive across the yields are destroyed exactly once during
// unwinding. Also a generator that catches exceptions thrown by a nested
// generator and keeps yielding.
//
// (unhandled_exception does not rethrow here: with clang, destroying a
// coroutine whose unhandled_exception exited via an exception after it had
// suspended destroys the locals of the last suspend point a second time at
// -O2 -- llvm/llvm-project#61900 -- so the native result is not a usable
// reference.)
#include <coroutine>
#include <cstdio>
#include <exception>
#include <stdexcept>
#include <string>
#include <utility>

template <typename T>
class generator {
public:
  struct promise_type {
    T current{};
    std::exception_ptr error;
    generator get_return_object() noexcept {
      return generator(std::coroutine_handle<promise_type>::from_promise(*this));
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    std::suspend_always yield_value(T v) noexcept {
      current = std::move(v);
      return {};
    }
    void return_void() noexcept {}
    void unhandled_exception() noexcept { error = std::current_exception(); }
  };
  explicit generator(std::coroutine_handle<promise_type> h) : h_(h) {}
  generator(generator&& o) noexcept : h_(std::exchange(o.h_, {})) {}
  ~generator() {
    if (h_) h_.destroy();
  }
  bool next() {
    h_.resume();
    if (h_.promise().error) std::rethrow_exception(std::exchange(h_.promise().error, nullptr));
    return !h_.done();
  }
  bool done() const { return h_.done(); }
  const T& value() const { return h_.promise().current; }

private:
  std::coroutine_handle<promise_type> h_;
};

static int live = 0;
struct R {
  int id;
  explicit R(int i) : id(i) { ++live; }
  ~R() {
    --live;
    printf("    ~R(%d)\n", id);
  }
};

generator<int> fragile(int fail_at) {
  R outer(-1);
  for (int i = 0;; ++i) {
    R inner(i);
    if (i == fail_at) throw std::runtime_error("fragile failed at " + std::to_string(i));
    co_yield i * i;
  }
}

generator<std::string> resilient() {
  for (int attempt = 1; attempt <= 3; ++attempt) {
    auto g = fragile(attempt);
    bool failed = false;
    try {
      while (g.next()) co_yield "attempt " + std::to_string(attempt) + " value " + std::to_string(g.value());
    } catch (const std::runtime_error& e) {
      // (co_yield is not allowed inside a handler)
      printf("    resilient caught: %s (inner done=%d)\n", e.what(), (int)g.done());
      failed = true;
    }
    if (failed) co_yield std::string("recovered from attempt ") + std::to_string(attempt);
  }
}

int main() {
  {
    auto g = fragile(3);
    try {
      while (g.next()) printf("value %d\n", g.value());
      printf("not reached\n");
    } catch (const std::exception& e) {
      printf("consumer caught: %s, done=%d live=%d\n", e.what(), (int)g.done(), live);
    }
  }
  {
    auto g = resilient();
    while (g.next()) printf("got '%s'\n", g.value().c_str());
  }
  printf("live=%d\n", live);
  return live;
}
