// Destroy a coroutine at each of its suspend points (including the initial
// and final ones). RAII objects in nested scopes, loop bodies and a
// by-value parameter print from their destructors, making the cleanup
// path taken for every suspend point visible.
#include <coroutine>
#include <cstdio>
#include <exception>
#include <utility>

static int live = 0;

struct Noisy {
  char name[8];
  explicit Noisy(const char* n) {
    int i = 0;
    for (; n[i] && i < 7; ++i) name[i] = n[i];
    name[i] = 0;
    ++live;
    printf("    ctor %s\n", name);
  }
  Noisy(const Noisy& o) {
    for (int i = 0; i < 8; ++i) name[i] = o.name[i];
    name[0] = 'P';  // mark the parameter copy
    ++live;
    printf("    copy %s\n", name);
  }
  ~Noisy() {
    --live;
    printf("    dtor %s\n", name);
  }
};

struct co {
  struct promise_type {
    co get_return_object() noexcept { return co{std::coroutine_handle<promise_type>::from_promise(*this)}; }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    void return_void() noexcept { printf("    return_void\n"); }
    void unhandled_exception() noexcept { std::terminate(); }
  };
  std::coroutine_handle<promise_type> h;
};

struct point {
  int id;
  bool await_ready() const noexcept { return false; }
  void await_suspend(std::coroutine_handle<>) const noexcept { printf("    suspend at point %d\n", id); }
  void await_resume() const noexcept {}
};

co body(Noisy param, int flag) {
  Noisy a("a");
  printf("    param is %s\n", param.name);
  co_await point{1};
  Noisy b("b");
  {
    Noisy c("c");
    co_await point{2};
    if (flag) {
      Noisy d("d");
      co_await point{3};
    }
  }
  for (int i = 0; i < 2; ++i) {
    Noisy e(i == 0 ? "e0" : "e1");
    co_await point{4 + i};
  }
  Noisy f("f");
  switch (flag) {
    case 1: {
      Noisy g("g");
      co_await point{6};
      break;
    }
    default:
      break;
  }
  printf("    body end\n");
}

int main() {
  // Suspend points: initial, 1, 2, 3, 4, 5, 6, final => 8 positions.
  for (int resumes = 0; resumes <= 8; ++resumes) {
    printf("case: destroy after %d resumes\n", resumes);
    co c = [&] {
      Noisy arg("x");
      return body(arg, 1);
    }();
    for (int i = 0; i < resumes && !c.h.done(); ++i) c.h.resume();
    printf("  done=%d live=%d -> destroy\n", (int)c.h.done(), live);
    c.h.destroy();
    printf("  live after destroy=%d\n", live);
  }
  // A path with flag == 0 (skips points 3 and 6).
  printf("case: flag=0, run to completion\n");
  co c = [&] {
    Noisy arg("y");
    return body(arg, 0);
  }();
  while (!c.h.done()) c.h.resume();
  c.h.destroy();
  printf("  live after destroy=%d\n", live);
  return live;
}
