#include <coroutine>
#include <exception>
#include <utility>

namespace {
struct gen {
  struct promise_type {
    int v = 0;
    gen get_return_object() noexcept { return gen(std::coroutine_handle<promise_type>::from_promise(*this)); }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    std::suspend_always yield_value(int x) noexcept {
      v = x;
      return {};
    }
    void return_void() noexcept {}
    void unhandled_exception() { std::terminate(); }
  };
  explicit gen(std::coroutine_handle<promise_type> h) : h(h) {}
  gen(gen&& o) noexcept : h(std::exchange(o.h, {})) {}
  ~gen() {
    if (h) h.destroy();
  }
  std::coroutine_handle<promise_type> h;
};

gen squares(int n) {
  for (int i = 1; i <= n; ++i) co_yield i * i;
}
}  // namespace

int sum_of_squares(int n) {
  int s = 0;
  auto g = squares(n);
  for (g.h.resume(); !g.h.done(); g.h.resume()) s += g.h.promise().v;
  return s;
}
