// await_suspend returning a handle: returning the awaiting coroutine itself
// (resumes immediately), returning another coroutine (transfer), and
// returning std::noop_coroutine() (plain suspension). Includes a loop that
// suspends-and-self-resumes 1,000,000 times with constant stack.
#include <coroutine>
#include <cstdio>
#include <exception>
#include <utility>

struct co {
  struct promise_type {
    const char* name = "";
    co get_return_object() noexcept { return co{std::coroutine_handle<promise_type>::from_promise(*this)}; }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    void return_void() noexcept {}
    void unhandled_exception() noexcept { std::terminate(); }
  };
  std::coroutine_handle<promise_type> h;
};

struct self_resume {
  bool await_ready() const noexcept { return false; }
  std::coroutine_handle<> await_suspend(std::coroutine_handle<> h) const noexcept { return h; }
  void await_resume() const noexcept {}
};

struct transfer {
  std::coroutine_handle<> to;
  bool await_ready() const noexcept { return false; }
  std::coroutine_handle<> await_suspend(std::coroutine_handle<> h) const noexcept {
    return to ? to : h;
  }
  void await_resume() const noexcept {}
};

struct yield_to_caller {
  bool await_ready() const noexcept { return false; }
  std::coroutine_handle<> await_suspend(std::coroutine_handle<>) const noexcept {
    return std::noop_coroutine();
  }
  void await_resume() const noexcept {}
};

co spinner(unsigned long* counter) {
  for (unsigned i = 0; i < 1000000u; ++i) {
    co_await self_resume{};
    *counter += i & 3;
  }
  printf("  spinner done, counter=%lu\n", *counter);
}

co helper(int* log) {
  for (int i = 0; i < 3; ++i) {
    *log = *log * 10 + 2;
    printf("  helper step %d\n", i);
    co_await yield_to_caller{};
  }
}

co main_co(std::coroutine_handle<> other, int* log) {
  for (int i = 0; i < 3; ++i) {
    *log = *log * 10 + 1;
    printf("  main_co step %d -> transfer\n", i);
    co_await transfer{other};  // helper runs, then yields back to the resumer
    printf("  main_co resumed after step %d\n", i);
  }
  co_await transfer{nullptr};  // null target: resume self
  printf("  main_co finishing\n");
}

int main() {
  unsigned long counter = 0;
  co s = spinner(&counter);
  s.h.resume();
  printf("spinner done=%d\n", (int)s.h.done());
  s.h.destroy();

  int log = 0;
  co h = helper(&log);
  co m = main_co(h.h, &log);
  int rounds = 0;
  while (!m.h.done()) {
    ++rounds;
    printf("main resumes main_co (round %d)\n", rounds);
    m.h.resume();
  }
  printf("log=%d rounds=%d helper done=%d\n", log, rounds, (int)h.h.done());
  h.h.destroy();
  m.h.destroy();
  return 0;
}
