// Coroutines that never suspend once their always-ready awaits are decided: llcoro folds the
// `await_ready` of std::suspend_never before splitting and keeps their frames on the ramp's stack,
// which LLVM does only after inlining. The promise's address escapes to a global, so no optimiser
// can drop a heap frame's allocation on its own. A lazy task that really suspends keeps its two
// suspend points (main, which destroys it, holds its frame: the elision of tests/elide/*.cpp).
#include <coroutine>
#include <cstdio>

void* volatile last_promise;

struct oneshot {
  struct promise_type {
    promise_type() { last_promise = this; }
    oneshot get_return_object() noexcept { return {}; }
    std::suspend_never initial_suspend() noexcept { return {}; }
    std::suspend_never final_suspend() noexcept { return {}; }
    void return_void() noexcept {}
    void unhandled_exception() noexcept {}
  };
};

struct lazy {
  struct promise_type {
    promise_type() { last_promise = this; }
    lazy get_return_object() noexcept { return {std::coroutine_handle<promise_type>::from_promise(*this)}; }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    void return_void() noexcept {}
    void unhandled_exception() noexcept {}
  };
  std::coroutine_handle<promise_type> h;
};

oneshot add(int* out, int x) {
  *out += x;
  co_return;
}

oneshot steps(int* out, int n) {
  for (int i = 0; i < n; ++i) {
    co_await std::suspend_never{};
    *out = *out * 3 % 101;
  }
}

lazy later(int* out) {
  *out += 100;
  co_return;
}

int main() {
  int a = 0;
  for (int i = 0; i < 5; ++i) add(&a, i);
  int b = 1;
  for (int i = 0; i < 4; ++i) steps(&b, i + 1);
  lazy l = later(&a);
  int before = a;
  l.h.resume();
  l.h.destroy();
  printf("add %d steps %d lazy %d -> %d\n", before, b, before, a);
  return 0;
}
