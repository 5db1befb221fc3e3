// Runtime benchmark, lazy task in the style of Lewis Baker's "symmetric transfer" article: the
// awaiter stores the continuation and returns the task's handle from await_suspend; final_suspend
// returns the continuation. The result is kept in a plain member, a sync_wait-like driver runs the
// top task. A tree of awaits: 2M leaf tasks per run, 20 runs.
#include <coroutine>
#include <cstdio>
#include <exception>
#include <utility>

class task {
 public:
  class promise_type {
   public:
    task get_return_object() noexcept { return task{std::coroutine_handle<promise_type>::from_promise(*this)}; }
    std::suspend_always initial_suspend() noexcept { return {}; }
    struct final_awaiter {
      bool await_ready() noexcept { return false; }
      std::coroutine_handle<> await_suspend(std::coroutine_handle<promise_type> h) noexcept {
        return h.promise().continuation;
      }
      void await_resume() noexcept {}
    };
    final_awaiter final_suspend() noexcept { return {}; }
    void unhandled_exception() noexcept { std::terminate(); }
    void return_value(long v) noexcept { result = v; }
    std::coroutine_handle<> continuation = std::noop_coroutine();
    long result = 0;
  };

  task(task&& t) noexcept : coro_(std::exchange(t.coro_, {})) {}
  ~task() {
    if (coro_) coro_.destroy();
  }

  class awaiter {
   public:
    bool await_ready() noexcept { return false; }
    std::coroutine_handle<> await_suspend(std::coroutine_handle<> continuation) noexcept {
      coro_.promise().continuation = continuation;
      return coro_;
    }
    long await_resume() noexcept { return coro_.promise().result; }

   private:
    friend task;
    explicit awaiter(std::coroutine_handle<promise_type> h) noexcept : coro_(h) {}
    std::coroutine_handle<promise_type> coro_;
  };
  awaiter operator co_await() && noexcept { return awaiter{coro_}; }

  long run() {
    coro_.resume();
    return coro_.promise().result;
  }

 private:
  explicit task(std::coroutine_handle<promise_type> h) noexcept : coro_(h) {}
  std::coroutine_handle<promise_type> coro_;
};

task leaf(long i) { co_return (i * 7) ^ (i >> 3); }
task pair(long i) {
  long a = co_await leaf(i);
  long b = co_await leaf(i + 1);
  co_return a - b;
}
task sum(long n, long seed) {
  long s = 0;
  for (long i = 0; i < n; ++i) s += co_await pair(i * 2 + seed);
  co_return s;
}

int main(int argc, char**) {
  long total = 0;
  for (int r = 0; r < 20; ++r) total += sum(1000000, argc + r).run();
  std::printf("%ld\n", total);
}
