// co_await / co_yield in many expression positions: if/while/for
// conditions, the ternary operator, short-circuit && and ||, array
// subscripts, member calls, initializers of aggregates, return statements
// (co_return co_await ...), switch conditions, nested co_await on the
// result of a co_await, and co_yield used as an expression.
#include <coroutine>
#include <cstdio>
#include <exception>
#include <utility>

#include "support/task.hpp"
static int susp = 0;
static std::coroutine_handle<> pending;

struct val {
  int v;
  bool await_ready() const noexcept { return false; }
  void await_suspend(std::coroutine_handle<> h) const noexcept {
    ++susp;
    pending = h;
  }
  int await_resume() const noexcept { return v; }
};

// Awaiting this returns another awaitable.
struct outer {
  int v;
  bool await_ready() const noexcept { return false; }
  void await_suspend(std::coroutine_handle<> h) const noexcept {
    ++susp;
    pending = h;
  }
  val await_resume() const noexcept { return val{v + 1}; }
};

struct Point {
  int x, y;
  int sum() const { return x + y; }
};

task<int> sub(int x) { co_return x * 3 + co_await val{x}; }

task<long> exprs() {
  long r = 0;
  int arr[5] = {10, 20, 30, 40, 50};
  if (co_await val{1}) r += 1;
  if (co_await val{0} || co_await val{2}) r += 10;   // both evaluated
  if (co_await val{0} && co_await val{99}) r += 1000;  // second not evaluated
  int k = co_await val{3} > 2 ? co_await val{4} : co_await val{5};
  r += k;
  r += arr[co_await val{2}];
  Point p{co_await val{6}, co_await val{7}};  // aggregate init: left to right
  r += p.sum() * 100;
  int n = 0;
  while (co_await val{n} < 3) ++n;
  r += n * 1000;
  for (int i = co_await val{0}; i < co_await val{2}; i += co_await val{1}) r += 10000;
  switch (co_await val{2}) {
    case 1:
      r += 1;
      break;
    case 2:
      r += 2 * co_await val{50};
      break;
  }
  r += co_await (co_await outer{8});  // awaits the awaitable returned by the first
  r += co_await sub(co_await val{4});
  r += (co_await sub(1)) * (co_await sub(2));  // result independent of operand order
  co_return r + co_await val{7};
}

struct ygen {
  struct promise_type {
    int current = 0;
    int reply = 0;
    ygen get_return_object() noexcept { return ygen{std::coroutine_handle<promise_type>::from_promise(*this)}; }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    // co_yield evaluates to the value main stored in `reply`.
    struct yield_awaiter {
      promise_type& p;
      bool await_ready() const noexcept { return false; }
      void await_suspend(std::coroutine_handle<>) const noexcept {}
      int await_resume() const noexcept { return p.reply; }
    };
    yield_awaiter yield_value(int v) noexcept {
      current = v;
      return {*this};
    }
    void return_void() noexcept {}
    void unhandled_exception() noexcept { std::terminate(); }
  };
  std::coroutine_handle<promise_type> h;
};

ygen conversation() {
  int a = co_yield 1;
  int b = (co_yield a + 1) * 2;
  int c = (co_yield b) + (a > 5 ? 100 : 0);
  if ((co_yield c) == 7) co_yield 777;
  co_yield -1;
}

struct root {
  struct promise_type {
    root get_return_object() noexcept { return root{std::coroutine_handle<promise_type>::from_promise(*this)}; }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    void return_void() noexcept {}
    void unhandled_exception() noexcept { std::terminate(); }
  };
  std::coroutine_handle<promise_type> h;
};
root start(long* out) { *out = co_await exprs(); }

int main() {
  long out = 0;
  root r = start(&out);
  r.h.resume();
  while (!r.h.done()) pending.resume();
  printf("exprs=%ld suspensions=%d\n", out, susp);
  r.h.destroy();

  ygen g = conversation();
  const int replies[] = {6, 3, 5, 7, 0, 0, 0};
  int i = 0;
  g.h.resume();
  while (!g.h.done()) {
    printf("yielded %d, replying %d\n", g.h.promise().current, replies[i]);
    g.h.promise().reply = replies[i++];
    g.h.resume();
  }
  g.h.destroy();
  return 0;
}
