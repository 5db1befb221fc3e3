// Runtime benchmark, recursive shape: a generator that yields every value of a nested generator
// (`for (auto v : inner()) co_yield v;`), two levels deep, consumed by range-for. The iterator is a
// C++20 one compared against std::default_sentinel_t. 25 runs of 1M values through three frames each.
#include <coroutine>
#include <cstdio>
#include <exception>
#include <iterator>
#include <utility>

template <typename T>
class Gen {
 public:
  class promise_type {
   public:
    Gen get_return_object() { return Gen{std::coroutine_handle<promise_type>::from_promise(*this)}; }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    std::suspend_always yield_value(T v) noexcept {
      val_ = v;
      return {};
    }
    void return_void() noexcept {}
    void unhandled_exception() { err_ = std::current_exception(); }
    T val_{};
    std::exception_ptr err_;
  };
  struct iterator {
    std::coroutine_handle<promise_type> h;
    iterator& operator++() {
      h.resume();
      if (h.promise().err_) std::rethrow_exception(h.promise().err_);
      return *this;
    }
    void operator++(int) { ++*this; }
    T operator*() const { return h.promise().val_; }
    bool operator==(std::default_sentinel_t) const { return h.done(); }
  };
  explicit Gen(std::coroutine_handle<promise_type> h) : h_(h) {}
  Gen(Gen&& o) noexcept : h_(std::exchange(o.h_, {})) {}
  ~Gen() {
    if (h_) h_.destroy();
  }
  iterator begin() {
    h_.resume();
    if (h_.promise().err_) std::rethrow_exception(h_.promise().err_);
    return iterator{h_};
  }
  std::default_sentinel_t end() { return {}; }

 private:
  std::coroutine_handle<promise_type> h_;
};

Gen<long> leaves(long base, long n) {
  for (long i = 0; i < n; ++i) co_yield (base + i) * 3;
}
Gen<long> rows(long base, long n) {
  for (long j = 0; j < n; ++j)
    for (long v : leaves(base + j * 100, 100)) co_yield v;
}
Gen<long> table(long seed, long n) {
  for (long k = 0; k < n; ++k)
    for (long v : rows(seed + k * 10000, 100)) co_yield v ^ k;
}

int main(int argc, char**) {
  long total = 0;
  for (int r = 0; r < 25; ++r)
    for (long v : table(argc + r, 100)) total += v;
  std::printf("%ld\n", total);
}
