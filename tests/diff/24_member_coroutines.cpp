// Member-function coroutines using `this` across suspends, const members,
// static member coroutines, virtual member coroutines, and a promise type
// whose constructor receives the object and the arguments.
#include <coroutine>
#include <cstdio>
#include <exception>
#include <string>
#include <utility>

#include "support/task.hpp"
#include "support/generator.hpp"
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
