// Nested try blocks, a catch-all that rethrows into the coroutine's own handler
// (unhandled_exception), destructors of locals in nested scopes live across suspends, a throw
// expression, suspends in a loop inside a try, and a generator yielding values that live across
// suspends in handlers' reach.
#include "coro.h"
struct Gen {
  struct promise_type {
    long value = 0;
    Gen get_return_object() { return {std::coroutine_handle<promise_type>::from_promise(*this)}; }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    std::suspend_always yield_value(long v) noexcept {
      value = v;
      return {};
    }
    void return_void() {}
    void unhandled_exception();
  };
  std::coroutine_handle<promise_type> h;
};
struct Res {
  long id;
  explicit Res(long i);
  ~Res();
};
long next_input(long);
void log(long);

Gen numbers(long n) {
  Res outer(n);
  for (long i = 0; i < n; ++i) {
    try {
      Res inner(i);
      long v = next_input(i);
      co_yield v + outer.id;
      try {
        if (v < 0)
          throw v;
        co_yield v * 2;
      } catch (long bad) {
        log(bad);
      }
      co_yield inner.id;
    } catch (int code) {
      log(code);
    } catch (...) {
      log(-1);
      throw;
    }
  }
  co_yield -n;
}
