// Runtime benchmark: a generator yielding 100,000,000 values (100 runs of 1M), summed by the caller.
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
  for (int run = 0; run < 100; run++) {
    gen g = numbers(1000000, argc + run);
    while (g.next()) total += g.value();
  }
  std::printf("%ld\n", total);
  return 0;
}
