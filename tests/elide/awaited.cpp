// Heap elision across co_await and through a reference: used by crates/llcoro/tests/elide.rs.
// - `parent` awaits ten `child` tasks in a loop; each is destroyed by ~task() at the end of its
//   co_await, so its frame can live inside parent's frame (10 frames).
// - main runs `parent(10)` through a temporary it destroys (1 frame on main's stack).
// - main iterates a generator with a range-based for, which binds the generator to a reference
//   variable (`auto&& __range`) and destroys it after the loop (1 frame on main's stack).
// - `kept` is moved into a global that outlives main's scope: its frame must stay on the heap.
#include <coroutine>
#include <cstdio>
#include <exception>
#include <optional>
#include <utility>

struct task {
  struct promise_type {
    long value = 0;
    std::coroutine_handle<> continuation;
    task get_return_object() noexcept { return task{std::coroutine_handle<promise_type>::from_promise(*this)}; }
    std::suspend_always initial_suspend() const noexcept { return {}; }
    struct final_awaiter {
      bool await_ready() const noexcept { return false; }
      std::coroutine_handle<> await_suspend(std::coroutine_handle<promise_type> h) noexcept {
        if (auto c = h.promise().continuation) return c;
        return std::noop_coroutine();
      }
      void await_resume() const noexcept {}
    };
    final_awaiter final_suspend() const noexcept { return {}; }
    void return_value(long v) noexcept { value = v; }
    void unhandled_exception() noexcept { std::terminate(); }
  };
  using handle = std::coroutine_handle<promise_type>;
  explicit task(handle h) noexcept : h_(h) {}
  task(task&& o) noexcept : h_(std::exchange(o.h_, {})) {}
  ~task() {
    if (h_) h_.destroy();
  }
  bool await_ready() const noexcept { return false; }
  std::coroutine_handle<> await_suspend(std::coroutine_handle<> awaiting) noexcept {
    h_.promise().continuation = awaiting;
    return h_;
  }
  long await_resume() noexcept { return h_.promise().value; }
  long run() {
    h_.resume();
    return h_.promise().value;
  }

 private:
  handle h_;
};

template <typename T>
struct generator {
  struct promise_type {
    const T* value = nullptr;
    generator get_return_object() noexcept {
      return generator{std::coroutine_handle<promise_type>::from_promise(*this)};
    }
    std::suspend_always initial_suspend() const noexcept { return {}; }
    std::suspend_always final_suspend() const noexcept { return {}; }
    std::suspend_always yield_value(const T& v) noexcept {
      value = &v;
      return {};
    }
    void return_void() noexcept {}
    void unhandled_exception() noexcept { std::terminate(); }
  };
  using handle = std::coroutine_handle<promise_type>;
  struct sentinel {};
  struct iterator {
    handle h;
    friend bool operator==(const iterator& it, sentinel) noexcept { return it.h.done(); }
    iterator& operator++() {
      h.resume();
      return *this;
    }
    const T& operator*() const noexcept { return *h.promise().value; }
  };
  explicit generator(handle h) noexcept : h_(h) {}
  generator(generator&& o) noexcept : h_(std::exchange(o.h_, {})) {}
  ~generator() {
    if (h_) h_.destroy();
  }
  iterator begin() {
    h_.resume();
    return iterator{h_};
  }
  sentinel end() noexcept { return {}; }

 private:
  handle h_;
};

task child(long i) { co_return i * i + 1; }

task parent(long n) {
  long sum = 0;
  for (long i = 0; i < n; i++) sum += co_await child(i);
  co_return sum;
}

generator<long> numbers(long n) {
  for (long i = 0; i < n; i++) co_yield i * 3;
}

std::optional<task> keep;

int main() {
  std::printf("parent %ld\n", parent(10).run());
  long s = 0;
  for (long v : numbers(5)) s += v;
  std::printf("numbers %ld\n", s);
  task kept = child(7);
  keep.emplace(std::move(kept));
  std::printf("kept %d\n", keep.has_value() ? 1 : 0);
  keep.reset();
  return 0;
}
