// Runtime benchmark: an eager task (it starts running when called, as in libraries' "eager" or
// "fire and await" tasks): initial_suspend is suspend_never, the result or exception is kept in
// the promise, and an awaiter that finds the task already complete does not suspend. Most of these
// tasks complete synchronously; every 64th suspends on a manual event that the driver's loop
// resumes. 30,000,000 tasks.
#include <coroutine>
#include <cstdio>
#include <exception>
#include <utility>

struct manual_event {
  std::coroutine_handle<> waiter;
  bool await_ready() const noexcept { return false; }
  void await_suspend(std::coroutine_handle<> h) noexcept { waiter = h; }
  void await_resume() const noexcept {}
};

class eager_task {
 public:
  struct promise_type {
    long value = 0;
    std::exception_ptr exception;
    std::coroutine_handle<> continuation;
    eager_task get_return_object() noexcept {
      return eager_task{std::coroutine_handle<promise_type>::from_promise(*this)};
    }
    std::suspend_never initial_suspend() const noexcept { return {}; }
    struct final_awaiter {
      bool await_ready() const noexcept { return false; }
      std::coroutine_handle<> await_suspend(std::coroutine_handle<promise_type> h) noexcept {
        if (auto c = h.promise().continuation) return c;
        return std::noop_coroutine();
      }
      void await_resume() const noexcept {}
    };
    final_awaiter final_suspend() const noexcept { return {}; }
    void return_value(long v) noexcept { value = v; }
    void unhandled_exception() noexcept { exception = std::current_exception(); }
  };
  using handle = std::coroutine_handle<promise_type>;
  explicit eager_task(handle h) noexcept : h_(h) {}
  eager_task(eager_task&& o) noexcept : h_(std::exchange(o.h_, {})) {}
  ~eager_task() {
    if (h_) h_.destroy();
  }
  bool await_ready() const noexcept { return h_.done(); }
  std::coroutine_handle<> await_suspend(std::coroutine_handle<> awaiting) noexcept {
    h_.promise().continuation = awaiting;
    return std::noop_coroutine();
  }
  long await_resume() {
    if (h_.promise().exception) std::rethrow_exception(h_.promise().exception);
    return h_.promise().value;
  }

 private:
  handle h_;
};

manual_event event;

eager_task work(long i) {
  if ((i & 63) == 0) co_await event;
  co_return (i * 5) ^ (i >> 1);
}

eager_task driver(long n, long* out) {
  long total = 0;
  for (long i = 0; i < n; i++) total += co_await work(i);
  *out = total;
  co_return total;
}

int main(int argc, char**) {
  long total = 0;
  eager_task t = driver(30000000L + argc - 1, &total);
  // Resume whatever waits on the event until the driver is done.
  while (event.waiter) {
    auto h = std::exchange(event.waiter, {});
    h.resume();
  }
  std::printf("%ld\n", total);
  return 0;
}
