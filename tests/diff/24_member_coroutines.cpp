// Member-function coroutines using `this` across suspends, const members,
// static member coroutines, virtual member coroutines, and a promise type
// whose constructor receives the object and the arguments.
#include <coroutine>
#include <cstdio>
#include <exception>
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
// A generator whose promise constructor sees the coroutine's parameters
// (for a member function, the object comes first).
struct traced_gen {
  struct promise_type {
    int current = 0;
    template <class Obj>
    promise_type(Obj& self, int n) {
      printf("  promise ctor: object '%s', n=%d\n", self.name.c_str(), n);
    }
    traced_gen get_return_object() noexcept {
      return traced_gen{std::coroutine_handle<promise_type>::from_promise(*this)};
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
  std::coroutine_handle<promise_type> h;
  ~traced_gen() { h.destroy(); }
};

class Account {
public:
  std::string name;
  explicit Account(std::string n, long b) : name(std::move(n)), balance_(b) {}

  task<long> deposit_many(int times, long amount) {
    for (int i = 0; i < times; ++i) {
      co_await std::suspend_never{};
      balance_ += amount;
      ++ops_;
    }
    co_return balance_;
  }
  task<long> balance() const {
    co_await std::suspend_never{};
    co_return balance_;
  }
  generator<long> history(int n) const {
    long b = balance_;
    for (int i = 0; i < n; ++i) {
      co_yield b;
      b = b * 2 + ops_;
    }
  }
  traced_gen countdown(int n) {
    while (n > 0) {
      co_yield n--;
      ++ops_;
    }
  }
  static task<long> transfer(Account& from, Account& to, long amount) {
    long f = co_await from.deposit_many(1, -amount);
    long t = co_await to.deposit_many(1, amount);
    co_return f + t;
  }
  int ops() const { return ops_; }

private:
  long balance_;
  int ops_ = 0;
};

struct Shape {
  virtual ~Shape() = default;
  virtual task<double> area() const = 0;
  virtual task<std::string> describe() const {
    double a = co_await area();
    co_return "shape with area " + std::to_string((int)(a * 100));
  }
};
struct Rect : Shape {
  double w, h;
  Rect(double a, double b) : w(a), h(b) {}
  task<double> area() const override { co_return w * h; }
};
struct Square : Rect {
  explicit Square(double s) : Rect(s, s) {}
  task<std::string> describe() const override {
    std::string base = co_await Shape::describe();
    co_return "square: " + base;
  }
};

int main() {
  Account a("alice", 100), b("bob", 50);
  printf("deposit_many -> %ld\n", a.deposit_many(5, 20).run());
  printf("balance -> %ld\n", a.balance().run());
  printf("transfer -> %ld\n", Account::transfer(a, b, 70).run());
  printf("alice=%ld bob=%ld\n", a.balance().run(), b.balance().run());
  {
    auto g = b.history(5);
    printf("history:");
    while (g.next()) printf(" %ld", g.value());
    printf("\n");
  }
  {
    traced_gen g = a.countdown(4);
    printf("countdown:");
    while (true) {
      g.h.resume();
      if (g.h.done()) break;
      printf(" %d", g.h.promise().current);
    }
    printf(" (ops=%d)\n", a.ops());
  }
  Rect r(2.5, 4);
  Square s(3);
  const Shape* shapes[] = {&r, &s};
  for (const Shape* sh : shapes) printf("%s\n", sh->describe().run().c_str());
  return 0;
}
