// Generators destroyed early at different co_yield points; RAII locals in
// nested scopes print from their destructors so the cleanup path is visible.
#include <coroutine>
#include <cstdio>
#include <exception>
#include <utility>

static int live = 0;

struct Guard {
  const char* name;
  int id;
  Guard(const char* n, int i) : name(n), id(i) {
    ++live;
    printf("    + %s%d\n", name, id);
  }
  Guard(const Guard&) = delete;
  ~Guard() {
    --live;
    printf("    - %s%d\n", name, id);
  }
};

class generator {
public:
  struct promise_type {
    int current = 0;
    promise_type() { printf("    promise ctor\n"); }
    ~promise_type() { printf("    promise dtor\n"); }
    generator get_return_object() noexcept {
      return generator(std::coroutine_handle<promise_type>::from_promise(*this));
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    std::suspend_always yield_value(int v) noexcept {
      current = v;
      return {};
    }
    void return_void() noexcept {}
    void unhandled_exception() { std::terminate(); }
  };
  explicit generator(std::coroutine_handle<promise_type> h) : h_(h) {}
  generator(generator&& o) noexcept : h_(std::exchange(o.h_, {})) {}
  ~generator() {
    if (h_) h_.destroy();
  }
  bool next() {
    h_.resume();
    return !h_.done();
  }
  int value() const { return h_.promise().current; }

private:
  std::coroutine_handle<promise_type> h_;
};

generator nested(int rows, int cols) {
  Guard outer("outer", 0);
  for (int r = 0; r < rows; ++r) {
    Guard row("row", r);
    for (int c = 0; c < cols; ++c) {
      Guard cell("cell", r * 10 + c);
      co_yield r * 10 + c;
    }
    co_yield -1 - r;  // end-of-row marker, only `row` and `outer` alive
  }
  Guard tail("tail", 9);
  co_yield 999;
}

int main() {
  // Total number of yields is rows*cols + rows + 1 = 2*2+2+1 = 7.
  for (int stop = 0; stop <= 8; ++stop) {
    printf("stop after %d values:\n", stop);
    {
      auto g = nested(2, 2);
      for (int i = 0; i < stop; ++i) {
        if (!g.next()) {
          printf("  (finished)\n");
          break;
        }
        printf("  got %d\n", g.value());
      }
      printf("  destroying, live=%d\n", live);
    }
    printf("  after destroy, live=%d\n", live);
  }
  return live == 0 ? 0 : 1;
}
