// Two children awaited one after the other: used by crates/llcoro/tests/elide.rs.
// `pair` awaits `leaf(i)` and then `leaf(i + 1)`; each leaf is destroyed by ~task() at the end of
// its co_await, so both frames live inside pair's frame, and since they are never alive together
// they can share its bytes. main runs pair through a temporary it destroys (pair's frame on main's
// stack): no coroutine frame on the heap at all.
#include <coroutine>
#include <cstdio>
#include <utility>

struct task {
  struct promise_type {
    long value = 0;
    std::coroutine_handle<> waiter;
    task get_return_object() { return task{std::coroutine_handle<promise_type>::from_promise(*this)}; }
    std::suspend_always initial_suspend() noexcept { return {}; }
    struct to_waiter {
      bool await_ready() noexcept { return false; }
      std::coroutine_handle<> await_suspend(std::coroutine_handle<promise_type> h) noexcept {
        auto w = h.promise().waiter;
        return w ? w : std::noop_coroutine();
      }
      void await_resume() noexcept {}
    };
    to_waiter final_suspend() noexcept { return {}; }
    void return_value(long v) { value = v; }
    void unhandled_exception() {}
  };
  std::coroutine_handle<promise_type> h;
  explicit task(std::coroutine_handle<promise_type> c) : h(c) {}
  task(task&& o) noexcept : h(std::exchange(o.h, {})) {}
  ~task() {
    if (h) h.destroy();
  }
  bool await_ready() { return false; }
  std::coroutine_handle<> await_suspend(std::coroutine_handle<> w) {
    h.promise().waiter = w;
    return h;
  }
  long await_resume() { return h.promise().value; }
  long run() {
    h.resume();
    return h.promise().value;
  }
};

task leaf(long i) { co_return i * 3 + 1; }

task pair(long i) {
  long a = co_await leaf(i);
  long b = co_await leaf(i + 1);
  co_return a * 100 + b;
}

int main() {
  long total = 0;
  for (long i = 0; i < 5; i++) total += pair(i).run();
  std::printf("%ld\n", total);
}
