// Runtime benchmark: a lazy task written the way widely used libraries write theirs (the promise
// holds the result or the exception in a std::variant; the awaiter stores the awaiting coroutine as
// the continuation and transfers to the task; final_suspend transfers back symmetrically; the result
// is rethrown or moved out in await_resume). A driver awaits 20,000,000 such tasks in a loop, each
// of which awaits a second, smaller task: 60M resumptions.
#include <coroutine>
#include <cstdio>
#include <exception>
#include <utility>
#include <variant>

template <typename T>
class task {
 public:
  struct promise_type {
    std::variant<std::monostate, T, std::exception_ptr> result;
    std::coroutine_handle<> continuation;
    task get_return_object() noexcept { return task{std::coroutine_handle<promise_type>::from_promise(*this)}; }
    std::suspend_always initial_suspend() const noexcept { return {}; }
    struct final_awaiter {
      bool await_ready() const noexcept { return false; }
      std::coroutine_handle<> await_suspend(std::coroutine_handle<promise_type> h) noexcept {
        if (auto c = h.promise().continuation) return c;
        return std::noop_coroutine();
      }
      void await_resume() const noexcept {}
    };
    final_awaiter final_suspend() const noexcept { return {}; }
    template <typename U>
    void return_value(U&& v) noexcept(noexcept(T(std::forward<U>(v)))) {
      result.template emplace<1>(std::forward<U>(v));
    }
    void unhandled_exception() noexcept { result.template emplace<2>(std::current_exception()); }
    T take() {
      if (result.index() == 2) std::rethrow_exception(std::get<2>(result));
      return std::move(std::get<1>(result));
    }
  };
  using handle = std::coroutine_handle<promise_type>;

  explicit task(handle h) noexcept : h_(h) {}
  task(task&& o) noexcept : h_(std::exchange(o.h_, {})) {}
  task(const task&) = delete;
  ~task() {
    if (h_) h_.destroy();
  }

  auto operator co_await() && noexcept {
    struct awaiter {
      handle h;
      bool await_ready() const noexcept { return !h || h.done(); }
      std::coroutine_handle<> await_suspend(std::coroutine_handle<> awaiting) noexcept {
        h.promise().continuation = awaiting;
        return h;
      }
      T await_resume() { return h.promise().take(); }
    };
    return awaiter{h_};
  }

  // For main: run to completion from a plain function.
  T run() {
    h_.resume();
    return h_.promise().take();
  }

 private:
  handle h_;
};

task<long> inner(long i) { co_return (i * 7) ^ (i >> 2); }

task<long> middle(long i) {
  long a = co_await inner(i);
  co_return a + (i & 15);
}

task<long> driver(long n) {
  long total = 0;
  for (long i = 0; i < n; i++) total += co_await middle(i);
  co_return total;
}

int main(int argc, char**) {
  std::printf("%ld\n", driver(20000000L + argc - 1).run());
  return 0;
}
