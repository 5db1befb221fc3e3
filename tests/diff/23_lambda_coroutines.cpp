// Coroutine lambdas: captureless, capturing by value and by reference (the
// closure object outlives the coroutine), init-captures with a moved
// std::string and std::unique_ptr, generic (auto) lambdas, mutable lambdas,
// and lambdas awaiting other lambdas.
#include <coroutine>
#include <cstdio>
#include <exception>
#include <memory>
#include <string>
#include <utility>

template <class T>
struct result_holder {
  T value{};
  void return_value(T v) { value = std::move(v); }
  T take() { return std::move(value); }
};
template <>
struct result_holder<void> {
  void return_void() noexcept {}
  void take() {}
};

// Lazy task with symmetric-transfer continuation.
template <class T = void>
class task {
public:
  struct promise_type : result_holder<T> {
    std::coroutine_handle<> continuation = std::noop_coroutine();
    std::exception_ptr error;
    task get_return_object() noexcept { return task(std::coroutine_handle<promise_type>::from_promise(*this)); }
    std::suspend_always initial_suspend() noexcept { return {}; }
    struct final_awaiter {
      bool await_ready() const noexcept { return false; }
      std::coroutine_handle<> await_suspend(std::coroutine_handle<promise_type> h) const noexcept {
        return h.promise().continuation;
      }
      void await_resume() const noexcept {}
    };
    final_awaiter final_suspend() noexcept { return {}; }
    void unhandled_exception() noexcept { error = std::current_exception(); }
  };
  explicit task(std::coroutine_handle<promise_type> h) : h_(h) {}
  task(task&& o) noexcept : h_(std::exchange(o.h_, {})) {}
  task& operator=(task&& o) noexcept {
    if (this != &o) {
      if (h_) h_.destroy();
      h_ = std::exchange(o.h_, {});
    }
    return *this;
  }
  ~task() {
    if (h_) h_.destroy();
  }
  bool await_ready() const noexcept { return false; }
  std::coroutine_handle<> await_suspend(std::coroutine_handle<> c) noexcept {
    h_.promise().continuation = c;
    return h_;
  }
  T await_resume() {
    if (h_.promise().error) std::rethrow_exception(h_.promise().error);
    return h_.promise().take();
  }
  // Starts the task from non-coroutine code; it must complete synchronously.
  T run() {
    h_.resume();
    if (!h_.done()) std::terminate();
    return await_resume();
  }
  bool done() const { return h_.done(); }

private:
  std::coroutine_handle<promise_type> h_;
};
template <typename T>
class generator {
public:
  struct promise_type {
    T current{};
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
    void unhandled_exception() { std::terminate(); }
  };
  explicit generator(std::coroutine_handle<promise_type> h) : h_(h) {}
  generator(generator&& o) noexcept : h_(std::exchange(o.h_, {})) {}
  ~generator() {
    if (h_) h_.destroy();
  }
  bool next() {
    h_.resume();
    return !h_.done();
  }
  const T& value() const { return h_.promise().current; }

private:
  std::coroutine_handle<promise_type> h_;
};
int main() {
  // Captureless lambda coroutine, also converted to a function pointer.
  auto square = [](int x) -> task<int> { co_return x * x; };
  task<int> (*fp)(int) = square;
  printf("square(7)=%d via fp(9)=%d\n", square(7).run(), fp(9).run());

  // Capture by value, used after suspension: the closure is kept alive.
  int base = 1000;
  std::string label = "sum";
  auto by_value = [base, label](int n) -> task<std::string> {
    int s = base;
    for (int i = 0; i < n; ++i) s += co_await [](int v) -> task<int> { co_return v; }(i);
    co_return label + "=" + std::to_string(s);
  };
  printf("%s\n", by_value(10).run().c_str());

  // Capture by reference, mutating the captured variable across suspends.
  int counter = 0;
  auto by_ref = [&counter](int times) -> generator<int> {
    for (int i = 0; i < times; ++i) {
      ++counter;
      co_yield counter * 10;
    }
  };
  {
    auto g = by_ref(4);
    printf("by_ref:");
    while (g.next()) printf(" %d(counter=%d)", g.value(), counter);
    printf("\n");
  }

  // Init-captures owning resources.
  auto owning = [s = std::string(40, 'z'), p = std::make_unique<int>(77)]() -> task<int> {
    co_await std::suspend_never{};
    int len = (int)s.size();
    co_await [](int) -> task<> { co_return; }(len);
    co_return len + *p;
  };
  printf("owning=%d\n", owning().run());

  // Generic lambda coroutine instantiated with two types.
  auto twice = [](auto v) -> task<decltype(v + v)> {
    auto r = v;
    co_await std::suspend_never{};
    co_return r + v;
  };
  printf("twice int=%d double=%.2f string=%s\n", twice(21).run(), twice(1.25).run(),
         twice(std::string("ab")).run().c_str());

  // Mutable lambda: the coroutine modifies the closure's copy of a capture.
  auto mut = [k = 5]() mutable -> generator<int> {
    while (k > 0) co_yield k--;
  };
  {
    auto g = mut();
    printf("mutable:");
    while (g.next()) printf(" %d", g.value());
    printf("\n");
  }
  // The closure state persisted in `mut` (k is now 0): a second call yields nothing.
  {
    auto g = mut();
    int n = 0;
    while (g.next()) ++n;
    printf("mutable second call yields %d\n", n);
  }

  // Lambda capturing `this`-like struct pointer and another lambda.
  struct Acc {
    long total = 0;
  } acc;
  auto add = [&acc](long v) -> task<long> {
    acc.total += v;
    co_return acc.total;
  };
  auto driver = [&add](int n) -> task<long> {
    long last = 0;
    for (int i = 1; i <= n; ++i) last = co_await add(i * i);
    co_return last;
  };
  long d = driver(20).run();
  printf("driver=%ld acc=%ld\n", d, acc.total);
  return 0;
}
