// Three small coroutines whose frame reports are checked by hand: tests/frames/report.txt (built
// without -g), report.g.txt and report.g.json (with -g), in crates/llcoro/tests/frames.rs.
#include <coroutine>

struct gen {
  struct promise_type {
    // Declared, so that the promise is not an aggregate built from the coroutine's arguments.
    promise_type() = default;
    long value = 0;
    gen get_return_object() { return gen{std::coroutine_handle<promise_type>::from_promise(*this)}; }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    std::suspend_always yield_value(long v) noexcept {
      value = v;
      return {};
    }
    void return_void() noexcept {}
    void unhandled_exception() noexcept {}
  };
  std::coroutine_handle<promise_type> h;
};

gen count(long n) {
  for (long i = 0; i < n; ++i) co_yield i;
}

gen twice(int a) {
  int b = a * 2;
  co_await std::suspend_always{};
  co_yield b;
}

// x is needed across the first two yields, y across the last two: they share bytes.
gen phases() {
  {
    long x[4] = {1, 2, 3, 4};
    co_yield x[0];
    co_yield x[3];
  }
  {
    long y[2] = {5, 6};
    co_yield y[0];
    co_yield y[1];
  }
}

long drain(gen g) {
  long sum = 0;
  for (g.h.resume(); !g.h.done(); g.h.resume()) sum += g.h.promise().value;
  g.h.destroy();
  return sum;
}

int main() { return drain(count(4)) + drain(twice(3)) + drain(phases()) == 28 ? 0 : 1; }
