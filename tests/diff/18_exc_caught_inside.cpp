// Exceptions thrown and caught inside the coroutine: try blocks containing
// co_await, rethrow from a catch handler to an outer try in the same
// coroutine, nested try blocks, exceptions from await_resume, and the
// coroutine continuing to suspend normally after handling.
#include <coroutine>
#include <cstdio>
#include <exception>
#include <stdexcept>
#include <string>
#include <utility>

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

// await_resume throws when the value is negative.
struct checked {
  int v;
  bool await_ready() const noexcept { return v == 0; }
  void await_suspend(std::coroutine_handle<>) const noexcept {}
  int await_resume() const {
    if (v < 0) throw std::out_of_range("negative " + std::to_string(v));
    return v;
  }
};

struct Scope {
  const char* n;
  explicit Scope(const char* s) : n(s) { printf("    enter %s\n", n); }
  ~Scope() { printf("    leave %s\n", n); }
};

co body(const int* values, int n, int* result) {
  int acc = 0;
  for (int i = 0; i < n; ++i) {
    Scope s("iter");
    try {
      try {
        Scope t("inner-try");
        int v = co_await checked{values[i]};
        if (v > 100) throw std::runtime_error("too big");
        acc += v;
        printf("    ok %d acc=%d\n", v, acc);
      } catch (const std::out_of_range& e) {
        printf("    inner caught out_of_range: %s\n", e.what());
        acc -= 1;
        if (values[i] < -50) throw;  // rethrow to the outer handler
      }
    } catch (const std::exception& e) {
      printf("    outer caught: %s\n", e.what());
      acc += 1000;
    }
    co_await std::suspend_always{};  // suspend after handling
  }
  *result = acc;
}

int main() {
  const int values[] = {5, -3, 0, 200, -77, 12, 0, -1};
  int result = 0;
  co c = body(values, 8, &result);
  int resumes = 0;
  while (!c.h.done()) {
    c.h.resume();
    ++resumes;
  }
  printf("result=%d resumes=%d\n", result, resumes);
  c.h.destroy();
  return 0;
}
