// Infinite generators (fibonacci, counters, a pseudo random LCG), consumed
// partially and destroyed while suspended at a co_yield.
#include <coroutine>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <utility>

template <typename T>
class generator {
public:
  struct promise_type {
    T current{};
    generator get_return_object() noexcept {
      return generator(std::coroutine_handle<promise_type>::from_promise(*this));
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    std::suspend_always yield_value(T v) noexcept {
      current = v;
      return {};
    }
    void return_void() noexcept {}
    void unhandled_exception() { std::terminate(); }
  };
  explicit generator(std::coroutine_handle<promise_type> h) : h_(h) {}
  generator(generator&& o) noexcept : h_(std::exchange(o.h_, {})) {}
  generator& operator=(generator&& o) noexcept {
    if (this != &o) {
      if (h_) h_.destroy();
      h_ = std::exchange(o.h_, {});
    }
    return *this;
  }
  ~generator() {
    if (h_) h_.destroy();
  }
  T next() {
    h_.resume();
    return h_.promise().current;
  }
  bool done() const { return h_.done(); }

private:
  std::coroutine_handle<promise_type> h_;
};

generator<std::uint64_t> fib() {
  std::uint64_t a = 0, b = 1;
  for (;;) {
    co_yield a;
    std::uint64_t t = a + b;  // BREAK-HERE
    a = b;
    b = t;
  }
}

generator<int> count_from(int start, int step) {
  for (int i = start;; i += step) co_yield i;
}

generator<std::uint32_t> lcg(std::uint32_t seed) {
  std::uint32_t s = seed;
  while (true) {
    s = s * 1664525u + 1013904223u;
    co_yield s >> 8;
  }
}

// An infinite generator built on top of another infinite generator.
generator<int> evens_only() {
  auto src = count_from(1, 1);
  for (;;) {
    int v = src.next();
    if (v % 2 == 0) co_yield v;
  }
}

int main() {
  {
    auto g = fib();
    printf("fib:");
    for (int i = 0; i < 20; ++i) printf(" %llu", (unsigned long long)g.next());
    printf("\n");
    std::uint64_t v = 0;
    for (int i = 20; i < 90; ++i) v = g.next();
    printf("fib(89)=%llu done=%d\n", (unsigned long long)v, (int)g.done());
  }
  {
    auto g = count_from(-5, 3);
    printf("count:");
    for (int i = 0; i < 10; ++i) printf(" %d", g.next());
    printf("\n");
    g = count_from(100, -7);  // old one destroyed while suspended
    printf("count2:");
    for (int i = 0; i < 5; ++i) printf(" %d", g.next());
    printf("\n");
  }
  {
    auto g = lcg(12345);
    std::uint32_t x = 0;
    for (int i = 0; i < 1000; ++i) x ^= g.next();
    printf("lcg xor=%u\n", x);
  }
  {
    auto g = evens_only();
    int s = 0;
    for (int i = 0; i < 50; ++i) s += g.next();
    printf("evens sum=%d\n", s);
  }
  {
    // create and destroy without ever resuming
    for (int i = 0; i < 10; ++i) {
      auto g = fib();
      (void)g;
    }
    printf("never-resumed generators destroyed\n");
  }
  return 0;
}
