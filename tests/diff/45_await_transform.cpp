// promise_type::await_transform intercepting every co_await in the body
// (ints become delays, strings are logged, tasks pass through), plus
// member and non-member operator co_await overloads.
#include <coroutine>
#include <cstdio>
#include <exception>
#include <string>
#include <utility>

static int ticks = 0;
static std::coroutine_handle<> sleeping;
static int wake_at = 0;

struct delay_awaiter {
  int n;
  bool await_ready() const noexcept { return n <= 0; }
  void await_suspend(std::coroutine_handle<> h) const noexcept {
    sleeping = h;
    wake_at = ticks + n;
  }
  int await_resume() const noexcept { return ticks; }
};

struct Meters {
  double v;
};
// Non-member operator co_await: awaiting a Meters converts it (no suspension).
struct meters_awaiter {
  double v;
  bool await_ready() const noexcept { return true; }
  void await_suspend(std::coroutine_handle<>) const noexcept {}
  double await_resume() const noexcept { return v * 100.0; }  // centimetres
};
meters_awaiter operator co_await(Meters m) { return {m.v}; }

// Member operator co_await that suspends once.
struct Flag {
  int value;
  struct awaiter {
    int value;
    bool await_ready() const noexcept { return false; }
    void await_suspend(std::coroutine_handle<> h) const noexcept {
      sleeping = h;
      wake_at = ticks + 1;
    }
    int await_resume() const noexcept { return value * 2; }
  };
  awaiter operator co_await() const { return {value}; }
};

struct scripted {
  struct promise_type {
    int logged = 0;
    scripted get_return_object() noexcept {
      return scripted{std::coroutine_handle<promise_type>::from_promise(*this)};
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    void return_void() noexcept {}
    void unhandled_exception() noexcept { std::terminate(); }

    delay_awaiter await_transform(int n) { return {n}; }
    std::suspend_never await_transform(const std::string& s) {
      ++logged;
      printf("  log: %s\n", s.c_str());
      return {};
    }
    // Pass-through for types that provide their own awaiters.
    Meters await_transform(Meters m) { return m; }
    const Flag& await_transform(const Flag& f) { return f; }
  };
  std::coroutine_handle<promise_type> h;
};

scripted script() {
  co_await std::string("start");
  int t1 = co_await 3;
  co_await ("woke at " + std::to_string(t1));
  int t2 = co_await 0;  // ready, no suspension
  co_await ("zero delay at " + std::to_string(t2));
  double cm = co_await Meters{1.25};
  co_await ("1.25 m = " + std::to_string((int)cm) + " cm");
  int f = co_await Flag{21};
  co_await ("flag gave " + std::to_string(f) + " at tick " + std::to_string(ticks));
  for (int i = 1; i <= 3; ++i) {
    int t = co_await i;
    co_await ("loop " + std::to_string(i) + " woke at " + std::to_string(t));
  }
}

int main() {
  scripted s = script();
  s.h.resume();
  while (!s.h.done()) {
    ++ticks;
    if (ticks == wake_at) {
      printf("tick %d: waking\n", ticks);
      sleeping.resume();
    }
  }
  printf("finished at tick %d, logged %d\n", ticks, s.h.promise().logged);
  s.h.destroy();
  return 0;
}
