// std::noop_coroutine(): returned from await_suspend to suspend and return
// control to the resumer; used as the default continuation of a task so the
// final transfer falls back to the caller; resuming it directly is a no-op
// and it never reports done().
#include <coroutine>
#include <cstdio>
#include <exception>
#include <utility>

struct co {
  struct promise_type {
    std::coroutine_handle<> next = std::noop_coroutine();
    co get_return_object() noexcept { return co{std::coroutine_handle<promise_type>::from_promise(*this)}; }
    std::suspend_always initial_suspend() noexcept { return {}; }
    struct final_awaiter {
      bool await_ready() const noexcept { return false; }
      std::coroutine_handle<> await_suspend(std::coroutine_handle<promise_type> h) const noexcept {
        return h.promise().next;  // noop unless someone registered
      }
      void await_resume() const noexcept {}
    };
    final_awaiter final_suspend() noexcept { return {}; }
    void return_void() noexcept {}
    void unhandled_exception() noexcept { std::terminate(); }
  };
  std::coroutine_handle<promise_type> h;
};

static int counter = 0;

// Suspends via noop_coroutine, or transfers to `to` if given.
struct pause_or_go {
  std::coroutine_handle<> to;
  bool await_ready() const noexcept { return false; }
  std::coroutine_handle<> await_suspend(std::coroutine_handle<>) const noexcept {
    ++counter;
    if (to) return to;
    return std::noop_coroutine();
  }
  void await_resume() const noexcept {}
};

co worker(const char* name, int n, std::coroutine_handle<> partner) {
  for (int i = 0; i < n; ++i) {
    printf("  %s %d\n", name, i);
    co_await pause_or_go{i % 2 ? partner : std::coroutine_handle<>{}};
  }
  printf("  %s finished\n", name);
}

int main() {
  std::noop_coroutine_handle n = std::noop_coroutine();
  n.resume();  // no effect
  n();         // no effect either
  printf("noop done=%d bool=%d address-nonnull=%d\n", (int)n.done(), (int)(bool)n, (int)(n.address() != nullptr));
  std::coroutine_handle<> erased = n;
  erased.resume();
  printf("noop via erased handle resumed fine, done=%d\n", (int)erased.done());

  co b = worker("B", 3, {});
  co a = worker("A", 4, b.h);
  int rounds = 0;
  while (!a.h.done()) {
    ++rounds;
    printf("main resumes A (round %d)\n", rounds);
    a.h.resume();
  }
  printf("A done, B done=%d, pauses=%d\n", (int)b.h.done(), counter);
  // Let B finish; its final continuation is the default noop_coroutine().
  while (!b.h.done()) b.h.resume();
  printf("B done=%d\n", (int)b.h.done());

  // A coroutine whose final continuation is another suspended coroutine.
  co c = worker("C", 1, {});
  co d = worker("D", 1, {});
  c.h.promise().next = d.h;  // when C finishes, control transfers to D
  c.h.resume();              // C prints, pauses (noop)
  c.h.resume();              // C finishes -> D starts, prints, pauses (noop)
  printf("C done=%d D done=%d\n", (int)c.h.done(), (int)d.h.done());
  d.h.resume();
  printf("D done=%d pauses=%d\n", (int)d.h.done(), counter);
  a.h.destroy();
  b.h.destroy();
  c.h.destroy();
  d.h.destroy();
  return 0;
}
