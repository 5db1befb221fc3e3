// Devirtualization test: one coroutine with promise type gen::promise_type, so coroutine_handle<gen::promise_type>::resume() and destroy() call its parts directly behind a check of the frame header (crates/llcoro/tests/devirt.rs).
#include <coroutine>
#include <cstdio>
#include <cstdlib>

struct gen {
  struct promise_type {
    long value = 0;
    gen get_return_object() { return gen{std::coroutine_handle<promise_type>::from_promise(*this)}; }
    std::suspend_always initial_suspend() { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    std::suspend_always yield_value(long v) {
      value = v;
      return {};
    }
    void return_void() {}
    void unhandled_exception() { std::abort(); }
  };
  std::coroutine_handle<promise_type> h;
  explicit gen(std::coroutine_handle<promise_type> h) : h(h) {}
  gen(gen&& o) noexcept : h(o.h) { o.h = {}; }
  ~gen() {
    if (h) h.destroy();
  }
  bool next() {
    h.resume();
    return !h.done();
  }
  long value() const { return h.promise().value; }
};

gen numbers(long n, long seed) {
  for (long i = 0; i < n; i++) co_yield (i * seed) ^ (i >> 3);
}

int main(int argc, char**) {
  long total = 0;
  for (int run = 0; run < 10; run++) {
    gen g = numbers(10000, argc + run);
    while (g.next()) total += g.value();
  }
  std::printf("%ld\n", total);
  return 0;
}
