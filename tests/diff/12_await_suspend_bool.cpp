// await_suspend returning bool: true suspends, false resumes the coroutine
// immediately (no suspension visible to the resumer). The decision is made at
// run time from data; counts of real suspensions are printed.
#include <coroutine>
#include <cstdio>
#include <exception>
#include <utility>

struct co {
  struct promise_type {
    int suspensions = 0;
    co get_return_object() noexcept { return co{std::coroutine_handle<promise_type>::from_promise(*this)}; }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    void return_void() noexcept {}
    void unhandled_exception() noexcept { std::terminate(); }
  };
  std::coroutine_handle<promise_type> h;
};

struct maybe {
  int v;
  bool await_ready() const noexcept { return false; }
  bool await_suspend(std::coroutine_handle<co::promise_type> h) noexcept {
    bool s = (v % 3) == 0;
    if (s) ++h.promise().suspensions;
    return s;
  }
  int await_resume() const noexcept { return v * 2; }
};

// await_suspend that always returns false: behaves like a ready awaitable but
// still gets to see the handle.
struct peek {
  std::coroutine_handle<> seen;
  bool await_ready() const noexcept { return false; }
  bool await_suspend(std::coroutine_handle<> h) noexcept {
    seen = h;
    return false;
  }
  std::coroutine_handle<> await_resume() const noexcept { return seen; }
};

struct always_true {
  bool await_ready() const noexcept { return false; }
  bool await_suspend(std::coroutine_handle<>) const noexcept { return true; }
  void await_resume() const noexcept {}
};

co body(int* out) {
  std::coroutine_handle<> self = co_await peek{};
  printf("  peek gave a non-null handle: %d\n", (int)(self != nullptr));
  int total = 0;
  for (int i = 1; i <= 10; ++i) {
    int r = co_await maybe{i};
    total += r;
    printf("  i=%d r=%d total=%d\n", i, r, total);
  }
  co_await always_true{};
  printf("  after always_true\n");
  *out = total;
}

int main() {
  int out = -1;
  co c = body(&out);
  int resumes = 0;
  while (!c.h.done()) {
    ++resumes;
    printf("resume #%d\n", resumes);
    c.h.resume();
  }
  printf("out=%d resumes=%d suspensions=%d\n", out, resumes, c.h.promise().suspensions);
  c.h.destroy();
  return 0;
}
