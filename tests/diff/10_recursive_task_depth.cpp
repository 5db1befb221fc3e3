// Deep recursion through lazy tasks: each level awaits a freshly created
// task one level deeper (depth 20000). Control enters the children and
// returns to the parents only through symmetric transfer.
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

static int max_depth = 0;

task<long> sum_down(int n) {
  if (n > max_depth) max_depth = n;
  if (n == 0) co_return 0;
  long below = co_await sum_down(n - 1);
  co_return below + n;
}

// Mutual recursion between two coroutine functions.
task<long> odd_chain(int n);
task<long> even_chain(int n) {
  if (n == 0) co_return 1;
  co_return 2 * (co_await odd_chain(n - 1)) % 1000003;
}
task<long> odd_chain(int n) {
  if (n == 0) co_return 3;
  co_return (co_await even_chain(n - 1) + 7) % 1000003;
}

int main() {
  long s = sum_down(20000).run();
  printf("sum_down(20000)=%ld max_depth=%d\n", s, max_depth);
  long m = even_chain(15001).run();
  printf("mutual(15001)=%ld\n", m);
  return 0;
}
