// Heap elision through a C++ task object: the handle lives in `gen`, whose destructor destroys it.
// main creates ten generators in a loop, each destroyed by ~gen() at the end of its iteration: their
// frames can live on main's stack. keep() moves one into a global, which outlives it: that frame
// must stay on the heap. Used by crates/llcoro/tests/elide.rs; and by crates/llcoro/tests/devirt.rs:
// squares is the one coroutine with promise type gen::promise_type, so the handle's resume() and
// destroy() call its parts directly behind a check of the frame header.
#include <coroutine>
#include <cstdio>
#include <utility>

struct gen {
  struct promise_type {
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
  explicit gen(std::coroutine_handle<promise_type> h) : h(h) {}
  gen(gen&& o) noexcept : h(std::exchange(o.h, {})) {}
  ~gen() {
    if (h) h.destroy();
  }
  bool next() {
    h.resume();
    return !h.done();
  }
  long value() const { return h.promise().value; }
};

gen squares(long n) {
  for (long i = 1; i <= n; i++) co_yield i * i;
}

gen* kept;

[[gnu::noinline]] void keep() {
  static gen g = squares(3);
  kept = &g;
}

int main() {
  long total = 0;
  for (int run = 0; run < 10; run++) {
    gen g = squares(run);
    while (g.next()) total += g.value();
  }
  keep();
  while (kept->next()) total += kept->value();
  std::printf("%ld\n", total);
  return 0;
}
