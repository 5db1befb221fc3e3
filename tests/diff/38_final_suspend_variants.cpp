// final_suspend returning suspend_always (frame stays alive, done() == true,
// the owner destroys it) vs suspend_never (frame destroyed automatically on
// completion; the promise destructor prints when that happens). done() is
// checked before start, at each suspension and after completion.
#include <coroutine>
#include <cstdio>
#include <exception>
#include <utility>

template <bool KeepAtFinal>
struct co {
  struct promise_type {
    const char* name;
    promise_type(const char* n, int) : name(n) { printf("  [%s] promise ctor\n", name); }
    ~promise_type() { printf("  [%s] promise dtor\n", name); }
    co get_return_object() noexcept { return co{std::coroutine_handle<promise_type>::from_promise(*this)}; }
    std::suspend_always initial_suspend() noexcept { return {}; }
    auto final_suspend() noexcept {
      printf("  [%s] final_suspend\n", name);
      if constexpr (KeepAtFinal)
        return std::suspend_always{};
      else
        return std::suspend_never{};
    }
    void return_void() noexcept { printf("  [%s] return_void\n", name); }
    void unhandled_exception() noexcept { std::terminate(); }
  };
  std::coroutine_handle<promise_type> h;
};

template <bool K>
co<K> steps(const char* name, int n) {
  for (int i = 0; i < n; ++i) {
    printf("  [%s] step %d\n", name, i);
    co_await std::suspend_always{};
  }
}

int main() {
  printf("suspend_always at final:\n");
  auto a = steps<true>("keep", 2);
  printf("  done=%d (not started)\n", (int)a.h.done());
  for (int i = 0; i < 3; ++i) {
    a.h.resume();
    printf("  after resume %d: done=%d\n", i + 1, (int)a.h.done());
  }
  printf("  destroying finished coroutine\n");
  a.h.destroy();

  printf("suspend_never at final:\n");
  auto b = steps<false>("auto", 2);
  printf("  done=%d (not started)\n", (int)b.h.done());
  for (int i = 0; i < 2; ++i) {
    b.h.resume();
    printf("  after resume %d: done=%d\n", i + 1, (int)b.h.done());
  }
  printf("  last resume (frame will free itself)\n");
  b.h.resume();
  printf("  handle is dangling now; not touched\n");

  printf("suspend_never at final, destroyed early:\n");
  auto c = steps<false>("early", 5);
  c.h.resume();
  c.h.destroy();
  printf("end\n");
  return 0;
}
