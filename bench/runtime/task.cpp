// Runtime benchmark: 50,000,000 lazily started tasks, each awaited by a driver coroutine
// (symmetric transfer in and out): 100M resumptions.
#include <coroutine>
#include <cstdio>
#include <cstdlib>
#include <utility>

struct task {
  struct promise_type {
    long value = 0;
    std::coroutine_handle<> cont;
    task get_return_object() { return task{std::coroutine_handle<promise_type>::from_promise(*this)}; }
    std::suspend_always initial_suspend() { return {}; }
    struct final_awaiter {
      bool await_ready() noexcept { return false; }
      std::coroutine_handle<> await_suspend(std::coroutine_handle<promise_type> h) noexcept {
        auto c = h.promise().cont;
        return c ? c : std::noop_coroutine();
      }
      void await_resume() noexcept {}
    };
    final_awaiter final_suspend() noexcept { return {}; }
    void return_value(long v) { value = v; }
    void unhandled_exception() { std::abort(); }
  };
  std::coroutine_handle<promise_type> h;
  explicit task(std::coroutine_handle<promise_type> h) : h(h) {}
  task(task&& o) noexcept : h(std::exchange(o.h, {})) {}
  ~task() {
    if (h) h.destroy();
  }
  bool await_ready() { return false; }
  std::coroutine_handle<> await_suspend(std::coroutine_handle<> c) {
    h.promise().cont = c;
    return h;
  }
  long await_resume() { return h.promise().value; }
};

task leaf(long i) { co_return (i * 7) ^ (i >> 2); }

task driver(long n) {
  long total = 0;
  for (long i = 0; i < n; i++) total += co_await leaf(i);
  co_return total;
}

int main(int argc, char**) {
  task t = driver(50000000L + argc - 1);
  t.h.resume();
  std::printf("%ld\n", t.h.promise().value);
  return 0;
}
