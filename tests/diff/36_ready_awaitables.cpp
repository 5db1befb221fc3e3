// co_await on ready awaitables (await_ready() == true): no suspension happens
// and await_suspend is never called. Readiness decided at compile time
// (suspend_never), at run time (data dependent), and by awaiting tasks that
// have already completed. Counts of suspensions are printed.
#include <coroutine>
#include <cstdio>
#include <exception>
#include <utility>

static int suspend_calls = 0;

struct co {
  struct promise_type {
    co get_return_object() noexcept { return co{std::coroutine_handle<promise_type>::from_promise(*this)}; }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    void return_void() noexcept {}
    void unhandled_exception() noexcept { std::terminate(); }
  };
  std::coroutine_handle<promise_type> h;
};

struct value_if_ready {
  int v;
  bool ready;
  bool await_ready() const noexcept { return ready; }
  void await_suspend(std::coroutine_handle<>) const noexcept { ++suspend_calls; }
  int await_resume() const noexcept { return ready ? v : -v; }
};

// A future-like value that may already be available.
struct cell {
  bool has = false;
  int value = 0;
  std::coroutine_handle<> waiter;
  void set(int v) {
    has = true;
    value = v;
    if (auto w = std::exchange(waiter, {})) w.resume();
  }
  struct awaiter {
    cell& c;
    bool await_ready() const noexcept { return c.has; }
    void await_suspend(std::coroutine_handle<> h) const noexcept {
      ++suspend_calls;
      c.waiter = h;
    }
    int await_resume() const noexcept { return c.value; }
  };
  awaiter operator co_await() { return awaiter{*this}; }
};

co body(cell& early, cell& late, long* out) {
  long acc = 0;
  for (int i = 0; i < 10; ++i) {
    co_await std::suspend_never{};
    acc += i;
  }
  for (int i = 0; i < 12; ++i) acc += co_await value_if_ready{i, i % 4 != 0};
  acc += co_await early;  // already set: no suspension
  acc += co_await late;   // not yet set: suspends until main sets it
  acc += co_await late;   // now set: ready
  *out = acc;
}

int main() {
  cell early, late;
  early.set(1000);
  long out = 0;
  co c = body(early, late, &out);
  int resumes = 0;
  c.h.resume();
  ++resumes;
  while (!c.h.done() && resumes < 10) {
    if (late.waiter) {
      printf("setting late cell\n");
      late.set(50000);
    } else {
      c.h.resume();
    }
    ++resumes;
  }
  printf("out=%ld suspend_calls=%d resumes=%d done=%d\n", out, suspend_calls, resumes, (int)c.h.done());
  c.h.destroy();
  return 0;
}
