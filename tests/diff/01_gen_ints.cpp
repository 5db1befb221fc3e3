// Generators of integers: finite ranges, empty generator, generator with
// early return, long long values, several generators interleaved.
#include <coroutine>
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
  generator(const generator&) = delete;
  generator& operator=(const generator&) = delete;
  ~generator() {
    if (h_) h_.destroy();
  }
  bool next() {
    h_.resume();
    return !h_.done();
  }
  T value() const { return h_.promise().current; }

private:
  std::coroutine_handle<promise_type> h_;
};

generator<int> range(int lo, int hi, int step) {
  for (int i = lo; i < hi; i += step) co_yield i;
}

generator<int> squares(int n) {
  for (int i = 1; i <= n; ++i) co_yield i * i;
}

generator<int> empty_gen() { co_return; }

generator<int> early_exit(int limit) {
  for (int i = 0;; ++i) {
    if (i * i > limit) co_return;
    co_yield i;
  }
}

generator<long long> collatz(long long n) {
  co_yield n;
  while (n != 1) {
    n = (n % 2) ? 3 * n + 1 : n / 2;
    co_yield n;
  }
}

generator<unsigned> primes_below(unsigned n) {
  for (unsigned c = 2; c < n; ++c) {
    bool prime = true;
    for (unsigned d = 2; d * d <= c; ++d)
      if (c % d == 0) {
        prime = false;
        break;
      }
    if (prime) co_yield c;
  }
}

int main() {
  {
    auto g = range(3, 40, 4);
    printf("range:");
    while (g.next()) printf(" %d", g.value());
    printf("\n");
  }
  {
    auto g = squares(12);
    int sum = 0;
    printf("squares:");
    while (g.next()) {
      printf(" %d", g.value());
      sum += g.value();
    }
    printf(" sum=%d\n", sum);
  }
  {
    auto g = empty_gen();
    int n = 0;
    while (g.next()) ++n;
    printf("empty yielded %d\n", n);
  }
  {
    auto g = early_exit(50);
    printf("early:");
    while (g.next()) printf(" %d", g.value());
    printf("\n");
  }
  {
    auto g = collatz(27);
    long long mx = 0;
    int steps = 0;
    while (g.next()) {
      ++steps;
      if (g.value() > mx) mx = g.value();
    }
    printf("collatz(27): %d values, max %lld\n", steps, mx);
  }
  {
    auto g = primes_below(200);
    unsigned cnt = 0, last = 0, sum = 0;
    while (g.next()) {
      ++cnt;
      last = g.value();
      sum += last;
    }
    printf("primes<200: count=%u last=%u sum=%u\n", cnt, last, sum);
  }
  {
    // interleave two generators
    auto a = range(0, 10, 1);
    auto b = squares(7);
    printf("zip:");
    while (a.next() && b.next()) printf(" (%d,%d)", a.value(), b.value());
    printf("\n");
  }
  return 0;
}
