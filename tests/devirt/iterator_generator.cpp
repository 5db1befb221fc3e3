// A generator with an iterator interface, written the way widely used libraries write theirs (the
// promise keeps the exception the body threw; advancing resumes, then rethrows, then tests done()).
// Each run's begin() resumes once before the loop, so that call sits in the outer loop only. Used by
// crates/llcoro/tests/devirt.rs, which checks that after clang -O2 main calls no part of the
// coroutine (both resumes inlined, the frame's fields free to live in registers), and that the
// program prints what clang's own build prints.
#include <coroutine>
#include <cstdio>
#include <exception>
#include <utility>

struct generator {
  struct promise_type {
    const long* value = nullptr;
    std::exception_ptr error;
    generator get_return_object() noexcept {
      return generator{std::coroutine_handle<promise_type>::from_promise(*this)};
    }
    std::suspend_always initial_suspend() const noexcept { return {}; }
    std::suspend_always final_suspend() const noexcept { return {}; }
    std::suspend_always yield_value(const long& v) noexcept {
      value = &v;
      return {};
    }
    void return_void() noexcept {}
    void unhandled_exception() noexcept { error = std::current_exception(); }
    void rethrow() {
      if (error) std::rethrow_exception(std::move(error));
    }
  };
  using handle = std::coroutine_handle<promise_type>;

  struct end_marker {};
  struct iterator {
    handle h;
    friend bool operator==(const iterator& it, end_marker) noexcept { return !it.h || it.h.done(); }
    iterator& operator++() {
      h.resume();
      if (h.done()) h.promise().rethrow();
      return *this;
    }
    const long& operator*() const noexcept { return *h.promise().value; }
  };

  explicit generator(handle h) noexcept : h(h) {}
  generator(generator&& o) noexcept : h(std::exchange(o.h, {})) {}
  ~generator() {
    if (h) h.destroy();
  }
  iterator begin() {
    if (h) {
      h.resume();
      if (h.done()) h.promise().rethrow();
    }
    return iterator{h};
  }
  end_marker end() noexcept { return {}; }

  handle h;
};

generator mixed(long n, long seed) {
  for (long i = 0; i < n; i++) co_yield (i * seed) ^ (i >> 3);
}

int main(int argc, char**) {
  long total = 0;
  for (int run = 0; run < 10; run++)
    for (long v : mixed(1000, argc + run)) total += v;
  std::printf("%ld\n", total);
  return 0;
}
