// A loop of 1,000,000 co_await on lazy tasks that complete synchronously.
// Each await transfers into the child (await_suspend returns the child's
// handle) and the child's final_suspend transfers back to the parent, so
// without tail-call transfer the stack would grow by 2 frames per iteration.
#include <coroutine>
#include <cstdio>
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

task<unsigned> step(unsigned i) { co_return (i * 2654435761u) >> 28; }

task<unsigned long long> million() {
  unsigned long long sum = 0;
  for (unsigned i = 0; i < 1000000u; ++i) sum += co_await step(i);
  co_return sum;
}

int main() {
  unsigned long long s = million().run();
  printf("sum=%llu\n", s);
  return 0;
}
