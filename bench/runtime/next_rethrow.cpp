// Runtime benchmark, textbook shape: a Generator<long> with next()/value(). next() resumes, rethrows
// the exception the body stored, and reports whether a value is there (the shape of issue 25).
// 100 runs of 1M yields, summed in main.
#include <coroutine>
#include <cstdio>
#include <exception>

template <typename T>
struct Generator {
  struct promise_type {
    T current{};
    std::exception_ptr exc;
    Generator get_return_object() { return Generator{std::coroutine_handle<promise_type>::from_promise(*this)}; }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    std::suspend_always yield_value(T v) noexcept {
      current = v;
      return {};
    }
    void return_void() noexcept {}
    void unhandled_exception() noexcept { exc = std::current_exception(); }
  };
  std::coroutine_handle<promise_type> h;
  explicit Generator(std::coroutine_handle<promise_type> h) : h(h) {}
  Generator(Generator&& o) noexcept : h(o.h) { o.h = nullptr; }
  ~Generator() {
    if (h) h.destroy();
  }
  bool next() {
    h.resume();
    if (h.promise().exc) std::rethrow_exception(h.promise().exc);
    return !h.done();
  }
  T value() const { return h.promise().current; }
};

Generator<long> counter(long n, long k) {
  for (long i = 0; i < n; ++i) co_yield i * k + (i & 7);
}

int main(int argc, char**) {
  long sum = 0;
  for (int r = 0; r < 100; ++r) {
    auto g = counter(1000000, argc + r);
    while (g.next()) sum += g.value();
  }
  std::printf("%ld\n", sum);
}
