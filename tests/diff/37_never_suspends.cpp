// Coroutines that never suspend: initial_suspend and final_suspend are
// suspend_never and the body contains only ready awaits (or none). The frame
// is destroyed before the call returns; results are delivered through an
// out-pointer stored in the promise. Exit status is computed from results
// (returns 3 deliberately).
#include <coroutine>
#include <cstdio>
#include <exception>
#include <utility>

static int promises_alive = 0;

struct oneshot {
  struct promise_type {
    int* out = nullptr;
    promise_type() { ++promises_alive; }
    ~promise_type() { --promises_alive; }
    oneshot get_return_object() noexcept { return oneshot{this}; }
    std::suspend_never initial_suspend() noexcept { return {}; }
    std::suspend_never final_suspend() noexcept { return {}; }
    void return_void() noexcept {}
    void unhandled_exception() noexcept { std::terminate(); }
  };
  promise_type* p;  // only valid until the ramp returns... we don't keep it
};

// Hands the coroutine its own promise without suspending.
struct promise_of {
  oneshot::promise_type* p = nullptr;
  bool await_ready() const noexcept { return false; }
  bool await_suspend(std::coroutine_handle<oneshot::promise_type> h) noexcept {
    p = &h.promise();
    return false;
  }
  oneshot::promise_type& await_resume() const noexcept { return *p; }
};

oneshot compute(int* out, int x) {
  auto& pr = co_await promise_of{};
  pr.out = out;
  int r = x;
  for (int i = 0; i < 5; ++i) {
    co_await std::suspend_never{};
    r = r * 3 % 101;
  }
  *pr.out = r;
}

oneshot no_awaits(int* out) {
  *out += 1;
  co_return;
}

int main() {
  int results[6] = {};
  for (int i = 0; i < 6; ++i) {
    compute(&results[i], i + 1);
    printf("compute(%d) -> %d, promises alive after call: %d\n", i + 1, results[i], promises_alive);
  }
  int counter = 0;
  for (int i = 0; i < 7; ++i) no_awaits(&counter);
  printf("no_awaits counter=%d promises alive=%d\n", counter, promises_alive);
  int sum = 0;
  for (int r : results) sum += r;
  printf("sum=%d\n", sum);
  return sum % 7;  // deterministic non-zero status
}
