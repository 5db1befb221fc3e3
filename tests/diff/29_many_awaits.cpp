// A straight-line coroutine body with 24 distinct co_await points using a
// mix of awaiter kinds (always suspend, never suspend, bool await_suspend,
// handle-returning await_suspend, awaited sub-tasks), with values computed
// between them and kept alive across all of them.
#include <coroutine>
#include <cstdio>
#include <exception>
#include <utility>

#include "support/task.hpp"
static int suspensions = 0;
// The most recently suspended coroutine; main resumes it.
static std::coroutine_handle<> last_suspended;

struct susp {
  int v;
  bool await_ready() const noexcept { return false; }
  void await_suspend(std::coroutine_handle<> h) const noexcept {
    ++suspensions;
    last_suspended = h;
  }
  int await_resume() const noexcept { return v; }
};
struct ready {
  int v;
  bool await_ready() const noexcept { return true; }
  void await_suspend(std::coroutine_handle<>) const noexcept {}
  int await_resume() const noexcept { return v; }
};
struct maybe {
  int v;
  bool await_ready() const noexcept { return false; }
  bool await_suspend(std::coroutine_handle<> h) const noexcept {
    if (v & 1) {
      ++suspensions;
      last_suspended = h;
    }
    return v & 1;
  }
  int await_resume() const noexcept { return v; }
};
struct bounce {
  int v;
  bool await_ready() const noexcept { return false; }
  std::coroutine_handle<> await_suspend(std::coroutine_handle<> h) const noexcept { return h; }
  int await_resume() const noexcept { return v; }
};

task<int> sub(int x) {
  int y = co_await susp{x};
  co_return y + 1;
}

// The outer coroutine is resumed by hand from main. Sub-tasks complete while
// the outer coroutine is suspended inside them (their own susp points) and
// then transfer back.
task<long> many() {
  long a = co_await susp{1};
  long b = co_await ready{2};
  long c = co_await maybe{3};
  long d = co_await bounce{4};
  long e = co_await susp{5};
  long f = co_await maybe{6};
  long g = co_await sub(7);
  long h = co_await ready{8};
  long i = co_await susp{9};
  long j = co_await bounce{10};
  long k = co_await maybe{11};
  long l = co_await susp{12};
  long m = co_await sub(13);
  long n = co_await ready{14};
  long o = co_await susp{15};
  long p = co_await maybe{16};
  long q = co_await bounce{17};
  long r = co_await susp{18};
  long s = co_await sub(19);
  long t = co_await maybe{20};
  long u = co_await susp{21};
  long v = co_await ready{22};
  long w = co_await bounce{23};
  long x = co_await susp{24};
  printf("  values: %ld %ld %ld %ld %ld %ld %ld %ld %ld %ld %ld %ld\n", a, b, c, d, e, f, g, h, i, j, k, l);
  printf("  values: %ld %ld %ld %ld %ld %ld %ld %ld %ld %ld %ld %ld\n", m, n, o, p, q, r, s, t, u, v, w, x);
  co_return a * 1 + b * 2 + c * 3 + d * 4 + e * 5 + f * 6 + g * 7 + h * 8 + i * 9 + j * 10 + k * 11 + l * 12 +
            m * 13 + n * 14 + o * 15 + p * 16 + q * 17 + r * 18 + s * 19 + t * 20 + u * 21 + v * 22 + w * 23 +
            x * 24;
}

// Top-level coroutine started and resumed from main.
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

root wrapper(long* out) { *out = co_await many(); }

int main() {
  long out = 0;
  root r = wrapper(&out);
  r.h.resume();
  int resumes = 1;
  while (!r.h.done()) {
    last_suspended.resume();  // may be many() or one of its sub-tasks
    ++resumes;
  }
  printf("result=%ld suspensions=%d resumes=%d\n", out, suspensions, resumes);
  r.h.destroy();
  return 0;
}
