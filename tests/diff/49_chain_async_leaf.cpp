// A chain of 10000 nested tasks whose innermost task suspends on an event;
// when main fires the event, the completions cascade up through all 10000
// levels via symmetric transfer in final_suspend (tail calls keep the stack
// flat). The chain is built twice: once completed, once destroyed from the
// top while suspended (destroying each level destroys its awaited child
// task, recursively through the task destructors — kept shallow enough).
#include <coroutine>
#include <cstdio>
#include <exception>
#include <utility>

#include "support/task.hpp"
struct event {
  std::coroutine_handle<> waiter;
  int value = 0;
  bool await_ready() const noexcept { return false; }
  void await_suspend(std::coroutine_handle<> h) noexcept { waiter = h; }
  int await_resume() const noexcept { return value; }
  void fire(int v) {
    value = v;
    std::exchange(waiter, {}).resume();
  }
};

static int alive = 0;
struct Count {
  Count() { ++alive; }
  ~Count() { --alive; }
};

task<long> level(int depth, event& ev) {
  Count c;
  if (depth == 0) co_return co_await ev;
  long below = co_await level(depth - 1, ev);
  co_return below + depth % 7;
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

root top(int depth, event& ev, long* out) { *out = co_await level(depth, ev); }

int main() {
  event ev;
  long out = -1;
  root r = top(10000, ev, &out);
  r.h.resume();
  printf("suspended chain: alive=%d done=%d\n", alive, (int)r.h.done());
  ev.fire(1000);
  printf("after fire: out=%ld alive=%d done=%d\n", out, alive, (int)r.h.done());
  r.h.destroy();

  event ev2;
  long out2 = -1;
  root r2 = top(500, ev2, &out2);
  r2.h.resume();
  printf("second chain: alive=%d\n", alive);
  r2.h.destroy();  // destroys level(500) -> its child task -> ... recursively
  printf("destroyed while suspended: alive=%d out2=%ld\n", alive, out2);
  return alive;
}
