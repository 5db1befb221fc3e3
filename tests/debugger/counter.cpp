// Debugger test: locals of a coroutine live in its frame across suspends; with -g, gdb stopped in
// the resume function must still print them. The checked lines are marked BREAK-HERE.
#include <coroutine>
#include <cstdio>

struct gen {
  struct promise_type {
    int value = 0;
    gen get_return_object() { return gen{std::coroutine_handle<promise_type>::from_promise(*this)}; }
    std::suspend_always initial_suspend() { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    std::suspend_always yield_value(int v) {
      value = v;
      return {};
    }
    void return_void() {}
    void unhandled_exception() {}
  };
  std::coroutine_handle<promise_type> h;
};

gen counter(int n) {
  int total = 100;
  for (int i = 0; i < n; i++) {
    total += i;
    co_yield total;
    std::printf("resumed i=%d total=%d\n", i, total); // BREAK-HERE
  }
}

int main() {
  gen g = counter(3);
  while (true) {
    g.h.resume();
    if (g.h.done()) break;
    std::printf("got %d\n", g.h.promise().value);
  }
  g.h.destroy();
  return 0;
}
