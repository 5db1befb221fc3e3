// Eager tasks (initial_suspend = suspend_never): the body runs inside the
// call until its first real suspension. Awaiting an eager task that already
// finished completes without suspending (await_ready checks done()).
#include <coroutine>
#include <cstdio>
#include <exception>
#include <utility>

template <class T>
class eager {
public:
  struct promise_type {
    T value{};
    std::coroutine_handle<> waiter;
    eager get_return_object() noexcept {
      return eager(std::coroutine_handle<promise_type>::from_promise(*this));
    }
    std::suspend_never initial_suspend() noexcept { return {}; }
    struct final_awaiter {
      bool await_ready() const noexcept { return false; }
      std::coroutine_handle<> await_suspend(std::coroutine_handle<promise_type> h) const noexcept {
        if (h.promise().waiter) return h.promise().waiter;
        return std::noop_coroutine();
      }
      void await_resume() const noexcept {}
    };
    final_awaiter final_suspend() noexcept { return {}; }
    void return_value(T v) noexcept { value = v; }
    void unhandled_exception() noexcept { std::terminate(); }
  };
  explicit eager(std::coroutine_handle<promise_type> h) : h_(h) {}
  eager(eager&& o) noexcept : h_(std::exchange(o.h_, {})) {}
  ~eager() {
    if (h_) h_.destroy();
  }
  bool await_ready() const noexcept { return h_.done(); }
  void await_suspend(std::coroutine_handle<> c) noexcept { h_.promise().waiter = c; }
  T await_resume() const noexcept { return h_.promise().value; }
  bool done() const { return h_.done(); }
  T get() const { return h_.promise().value; }

private:
  std::coroutine_handle<promise_type> h_;
};

// A manually triggered event: coroutines awaiting it suspend until set().
struct event {
  std::coroutine_handle<> waiter;
  bool set_flag = false;
  bool await_ready() const noexcept { return set_flag; }
  void await_suspend(std::coroutine_handle<> h) noexcept { waiter = h; }
  void await_resume() const noexcept {}
  void set() {
    set_flag = true;
    if (auto w = std::exchange(waiter, {})) w.resume();
  }
};

eager<int> immediate(int x) {
  printf("  immediate(%d) body\n", x);
  co_return x + 1;
}

eager<int> waits_for(event& e, int x) {
  printf("  waits_for(%d): before event\n", x);
  co_await e;
  printf("  waits_for(%d): after event\n", x);
  co_return x * 2;
}

eager<int> combine(event& e) {
  printf(" combine: start\n");
  int a = co_await immediate(10);  // already done -> no suspension
  printf(" combine: a=%d\n", a);
  eager<int> w = waits_for(e, 21);  // suspends inside
  printf(" combine: waits_for started, done=%d\n", (int)w.done());
  int b = co_await w;  // suspends until the event fires
  printf(" combine: b=%d\n", b);
  co_return a + b;
}

int main() {
  event e;
  printf("calling combine\n");
  eager<int> c = combine(e);
  printf("combine returned to main, done=%d\n", (int)c.done());
  printf("setting event\n");
  e.set();
  printf("combine done=%d value=%d\n", (int)c.done(), c.get());
  eager<int> d = immediate(41);
  printf("immediate done=%d value=%d\n", (int)d.done(), d.get());
  {
    event never;
    eager<int> stuck = waits_for(never, 5);
    printf("stuck done=%d (destroyed while suspended)\n", (int)stuck.done());
  }
  return 0;
}
