// A generator returning each value as a std::optional copied out of the promise (sret result),
// consumed with `while (auto v = g())`. tests/devirt.rs checks its frame lives in main's registers.
#include <coroutine>
#include <cstdio>
#include <optional>
#include <utility>

struct Pair {
  long a, b;
};

struct seq {
  struct promise_type {
    std::optional<Pair> slot;
    seq get_return_object() { return seq(std::coroutine_handle<promise_type>::from_promise(*this)); }
    std::suspend_always initial_suspend() { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    std::suspend_always yield_value(Pair v) {
      slot.emplace(v);
      return {};
    }
    void return_void() {}
    void unhandled_exception() { throw; }
  };
  explicit seq(std::coroutine_handle<promise_type> h) : h(h) {}
  seq(seq&& o) noexcept : h(std::exchange(o.h, nullptr)) {}
  ~seq() {
    if (h) h.destroy();
  }
  std::optional<Pair> operator()() {
    if (!h || h.done()) return std::nullopt;
    h.resume();
    if (h.done()) return std::nullopt;
    return std::exchange(h.promise().slot, std::nullopt);
  }
  std::coroutine_handle<promise_type> h;
};

seq pairs(long n, long step) {
  Pair p{0, 1};
  for (long i = 0; i < n; ++i) {
    p.a += step;
    p.b ^= p.a >> 2;
    co_yield p;
  }
}

int main(int argc, char**) {
  long acc = 0;
  for (int r = 0; r < 10; ++r) {
    auto s = pairs(1000, argc + r);
    while (auto p = s()) acc += p->a - p->b;
  }
  std::printf("%ld\n", acc);
}
