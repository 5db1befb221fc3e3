// Generators yielding structs by value and by const reference (pointer to the
// yielded object is kept in the promise; the object lives across the suspend).
#include <coroutine>
#include <cstdio>
#include <exception>
#include <memory>
#include <utility>

struct Point {
  int x, y;
  double w;
};

struct Big {
  long a[8];
  char tag;
};

template <typename T>
class ref_generator {
public:
  struct promise_type {
    const T* current = nullptr;
    ref_generator get_return_object() noexcept {
      return ref_generator(std::coroutine_handle<promise_type>::from_promise(*this));
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    std::suspend_always yield_value(const T& v) noexcept {
      current = std::addressof(v);
      return {};
    }
    void return_void() noexcept {}
    void unhandled_exception() { std::terminate(); }
  };
  explicit ref_generator(std::coroutine_handle<promise_type> h) : h_(h) {}
  ref_generator(ref_generator&& o) noexcept : h_(std::exchange(o.h_, {})) {}
  ~ref_generator() {
    if (h_) h_.destroy();
  }
  bool next() {
    h_.resume();
    return !h_.done();
  }
  const T& value() const { return *h_.promise().current; }

private:
  std::coroutine_handle<promise_type> h_;
};

ref_generator<Point> grid(int w, int h) {
  for (int j = 0; j < h; ++j)
    for (int i = 0; i < w; ++i) co_yield Point{i, j, i * 0.5 + j * 0.25};  // temporary
}

ref_generator<Point> walk() {
  Point p{0, 0, 1.0};  // local lvalue yielded and mutated in place
  for (int i = 0; i < 8; ++i) {
    co_yield p;
    p.x += (i % 2) ? 1 : 0;
    p.y += (i % 3 == 0) ? 2 : -1;
    p.w *= 1.5;
  }
}

ref_generator<Big> bigs(int n) {
  for (int k = 0; k < n; ++k) {
    Big b{};
    for (int i = 0; i < 8; ++i) b.a[i] = (long)k * 100 + i;
    b.tag = (char)('A' + k);
    co_yield b;
  }
}

int main() {
  {
    auto g = grid(4, 3);
    double total = 0;
    printf("grid:");
    while (g.next()) {
      const Point& p = g.value();
      printf(" (%d,%d)", p.x, p.y);
      total += p.w;
    }
    printf(" total=%.3f\n", total);
  }
  {
    auto g = walk();
    printf("walk:");
    while (g.next()) printf(" [%d %d %.4f]", g.value().x, g.value().y, g.value().w);
    printf("\n");
  }
  {
    auto g = bigs(6);
    long sum = 0;
    printf("bigs:");
    while (g.next()) {
      const Big& b = g.value();
      for (long v : b.a) sum += v;
      printf(" %c", b.tag);
    }
    printf(" sum=%ld\n", sum);
  }
  return 0;
}
