// await_suspend returning void: the coroutine always suspends and control
// returns to whoever resumed it. The awaiter stores the handle in a queue
// that main drains; await_resume results flow back into the coroutine.
#include <coroutine>
#include <cstdio>
#include <exception>
#include <utility>

struct fire {
  struct promise_type {
    fire get_return_object() noexcept { return fire{std::coroutine_handle<promise_type>::from_promise(*this)}; }
    std::suspend_never initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    void return_void() noexcept {}
    void unhandled_exception() noexcept { std::terminate(); }
  };
  std::coroutine_handle<promise_type> h;
};

static std::coroutine_handle<> queue[16];
static int qhead = 0, qtail = 0;
static int tick = 0;

struct park {
  int payload;
  bool await_ready() const noexcept { return false; }
  void await_suspend(std::coroutine_handle<> h) noexcept {
    printf("    park(%d): suspending\n", payload);
    queue[qtail++ % 16] = h;
  }
  int await_resume() const noexcept { return payload * 10 + tick; }
};

// An awaiter whose await_suspend takes a typed handle and touches the promise.
struct park_typed {
  bool await_ready() const noexcept { return false; }
  void await_suspend(std::coroutine_handle<fire::promise_type> h) noexcept { queue[qtail++ % 16] = h; }
  void await_resume() const noexcept {}
};

fire worker(const char* name, int n) {
  int acc = 0;
  for (int i = 0; i < n; ++i) {
    int r = co_await park{i};
    acc += r;
    printf("  %s step %d got %d acc %d\n", name, i, r, acc);
  }
  co_await park_typed{};
  printf("  %s done, acc=%d\n", name, acc);
}

int main() {
  fire a = worker("A", 3);
  fire b = worker("B", 2);
  printf("both started\n");
  while (qhead != qtail) {
    ++tick;
    std::coroutine_handle<> h = queue[qhead++ % 16];
    printf("tick %d resume\n", tick);
    h.resume();
  }
  printf("A done=%d B done=%d\n", (int)a.h.done(), (int)b.h.done());
  a.h.destroy();
  b.h.destroy();
  return 0;
}
