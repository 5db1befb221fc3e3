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

#include "support/task.hpp"
#include "support/generator.hpp"
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
