// Runtime benchmark: a generator written the way widely used libraries write theirs (an iterator
// interface; the promise keeps a pointer to the yielded value and the exception the body threw, and
// advancing resumes, then rethrows, then tests done()). 100 runs of 1M yields, summed.
#include <coroutine>
#include <cstdio>
#include <exception>
#include <iterator>
#include <memory>
#include <utility>

template <typename T>
class generator {
 public:
  struct promise_type {
    const T* value = nullptr;
    std::exception_ptr exception;
    generator get_return_object() noexcept {
      return generator{std::coroutine_handle<promise_type>::from_promise(*this)};
    }
    std::suspend_always initial_suspend() const noexcept { return {}; }
    std::suspend_always final_suspend() const noexcept { return {}; }
    std::suspend_always yield_value(const T& v) noexcept {
      value = std::addressof(v);
      return {};
    }
    void return_void() noexcept {}
    void unhandled_exception() noexcept { exception = std::current_exception(); }
    void rethrow_if_exception() {
      if (exception) std::rethrow_exception(std::move(exception));
    }
    template <typename U>
    std::suspend_never await_transform(U&&) = delete;
  };
  using handle = std::coroutine_handle<promise_type>;

  struct sentinel {};
  class iterator {
   public:
    using iterator_category = std::input_iterator_tag;
    using difference_type = std::ptrdiff_t;
    using value_type = T;
    explicit iterator(handle h) noexcept : h_(h) {}
    friend bool operator==(const iterator& it, sentinel) noexcept { return !it.h_ || it.h_.done(); }
    iterator& operator++() {
      h_.resume();
      if (h_.done()) h_.promise().rethrow_if_exception();
      return *this;
    }
    const T& operator*() const noexcept { return *h_.promise().value; }

   private:
    handle h_;
  };

  explicit generator(handle h) noexcept : h_(h) {}
  generator(generator&& o) noexcept : h_(std::exchange(o.h_, {})) {}
  generator(const generator&) = delete;
  ~generator() {
    if (h_) h_.destroy();
  }
  iterator begin() {
    if (h_) {
      h_.resume();
      if (h_.done()) h_.promise().rethrow_if_exception();
    }
    return iterator{h_};
  }
  sentinel end() noexcept { return {}; }

 private:
  handle h_;
};

generator<long> numbers(long n, long seed) {
  for (long i = 0; i < n; i++) co_yield (i * seed) ^ (i >> 3);
}

int main(int argc, char**) {
  long total = 0;
  for (int run = 0; run < 100; run++)
    for (long v : numbers(1000000, argc + run)) total += v;
  std::printf("%ld\n", total);
  return 0;
}
