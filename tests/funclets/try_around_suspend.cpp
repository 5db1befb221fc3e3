// A suspend inside a try block whose handler catches by value, an object with a destructor live
// across suspends (its cleanup runs in a cleanup funclet), and a suspend after the handler.
#include "coro.h"
struct Task {
  struct promise_type {
    Task get_return_object() { return {std::coroutine_handle<promise_type>::from_promise(*this)}; }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    void return_void() {}
    void unhandled_exception() {}
  };
  std::coroutine_handle<promise_type> h;
};
struct Guard {
  int *p;
  ~Guard();
};
void may_throw(int);
Task co(int *p) {
  Guard g{p};
  try {
    may_throw(1);
    co_await std::suspend_always{};
    may_throw(2);
  } catch (int e) {
    *p += e;
  }
  co_await std::suspend_always{};
  *p += 1;
}
