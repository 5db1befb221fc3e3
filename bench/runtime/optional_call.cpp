// Runtime benchmark, "call it until empty" shape: the promise stores the yielded value itself (not a
// pointer to it) in a std::optional, and the generator's operator() resumes and moves the value out,
// returning std::nullopt at the end. The values are a small struct. 60 runs of 1M yields.
#include <coroutine>
#include <cstdio>
#include <exception>
#include <optional>
#include <utility>

struct Point {
  long x, y;
};

template <class T>
class lazy_seq {
 public:
  struct promise_type {
    std::optional<T> slot;
    lazy_seq get_return_object() { return lazy_seq(handle::from_promise(*this)); }
    std::suspend_always initial_suspend() { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    std::suspend_always yield_value(T v) {
      slot.emplace(std::move(v));
      return {};
    }
    void return_void() {}
    void unhandled_exception() { throw; }
  };
  using handle = std::coroutine_handle<promise_type>;

  explicit lazy_seq(handle h) : coro_(h) {}
  lazy_seq(const lazy_seq&) = delete;
  lazy_seq(lazy_seq&& o) noexcept : coro_(std::exchange(o.coro_, nullptr)) {}
  ~lazy_seq() {
    if (coro_) coro_.destroy();
  }

  std::optional<T> operator()() {
    if (!coro_ || coro_.done()) return std::nullopt;
    coro_.resume();
    if (coro_.done()) return std::nullopt;
    return std::exchange(coro_.promise().slot, std::nullopt);
  }

 private:
  handle coro_;
};

lazy_seq<Point> walk(long n, long step) {
  Point p{0, 1};
  for (long i = 0; i < n; ++i) {
    p.x += step;
    p.y ^= p.x >> 2;
    co_yield p;
  }
}

int main(int argc, char**) {
  long acc = 0;
  for (int r = 0; r < 60; ++r) {
    auto s = walk(1000000, argc + r);
    while (auto p = s()) acc += p->x - p->y;
  }
  std::printf("%ld\n", acc);
}
