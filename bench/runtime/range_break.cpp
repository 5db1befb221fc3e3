// Runtime benchmark, an endless generator consumed by range-for with `break`: the loop leaves the
// coroutine suspended and the generator's destructor destroys it there. The generator is a
// minimal one in the style of cppreference's examples (std::generator stand-in, value held by copy,
// input iterator with a sentinel). 60 runs of up to 1M values.
#include <coroutine>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <utility>

template <typename T>
struct simple_generator {
  struct promise_type;
  using handle_type = std::coroutine_handle<promise_type>;
  struct promise_type {
    T value_;
    std::exception_ptr exception_;
    simple_generator get_return_object() { return simple_generator(handle_type::from_promise(*this)); }
    std::suspend_always initial_suspend() { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    void unhandled_exception() { exception_ = std::current_exception(); }
    template <std::convertible_to<T> From>
    std::suspend_always yield_value(From&& from) {
      value_ = std::forward<From>(from);
      return {};
    }
    void return_void() {}
  };
  handle_type h_;
  simple_generator(handle_type h) : h_(h) {}
  simple_generator(simple_generator&& o) noexcept : h_(std::exchange(o.h_, {})) {}
  ~simple_generator() {
    if (h_) h_.destroy();
  }
  struct sentinel {};
  struct iterator {
    handle_type h;
    bool operator!=(sentinel) const { return !h.done(); }
    void operator++() {
      h();
      if (h.promise().exception_) std::rethrow_exception(h.promise().exception_);
    }
    const T& operator*() const { return h.promise().value_; }
  };
  iterator begin() {
    h_();
    return iterator{h_};
  }
  sentinel end() { return {}; }
};

simple_generator<std::uint64_t> xorshift(std::uint64_t s) {
  for (;;) {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    co_yield s;
  }
}

int main(int argc, char**) {
  std::uint64_t acc = 0;
  for (int r = 0; r < 60; ++r) {
    long k = 0;
    for (auto v : xorshift(88172645463325252ull + argc + r)) {
      if (++k > 1000000 - r) break;
      acc += v & 0xff;
    }
  }
  std::printf("%llu\n", (unsigned long long)acc);
}
