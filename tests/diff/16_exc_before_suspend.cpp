// Exceptions thrown before the first suspension:
//  * eager coroutine (suspend_never) throws in its body during the call; the
//    promise stores it and the caller observes it through the return object;
//  * lazy task throws on its first resume before any co_await; the awaiting
//    coroutine gets it from await_resume and catches it;
//  * lazy coroutine whose unhandled_exception rethrows: the exception leaves
//    resume() and the coroutine is then suspended at its final point.
#include <coroutine>
#include <cstdio>
#include <exception>
#include <stdexcept>
#include <string>
#include <utility>

static int live = 0;
struct R {
  const char* n;
  explicit R(const char* s) : n(s) {
    ++live;
    printf("    R(%s)\n", n);
  }
  ~R() {
    --live;
    printf("    ~R(%s)\n", n);
  }
};

struct eager {
  struct promise_type {
    std::exception_ptr error;
    int value = 0;
    eager get_return_object() noexcept { return eager{std::coroutine_handle<promise_type>::from_promise(*this)}; }
    std::suspend_never initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    void return_value(int v) noexcept { value = v; }
    void unhandled_exception() noexcept {
      printf("    unhandled_exception (stored)\n");
      error = std::current_exception();
    }
  };
  std::coroutine_handle<promise_type> h;
  ~eager() { h.destroy(); }
  int get() {
    if (h.promise().error) std::rethrow_exception(h.promise().error);
    return h.promise().value;
  }
};

eager eager_thrower(int x) {
  R r("eager-local");
  if (x > 0) throw std::runtime_error("eager failure " + std::to_string(x));
  co_await std::suspend_always{};
  co_return x;
}

template <class T>
class task {
public:
  struct promise_type {
    T value{};
    std::exception_ptr error;
    std::coroutine_handle<> continuation = std::noop_coroutine();
    task get_return_object() noexcept { return task(std::coroutine_handle<promise_type>::from_promise(*this)); }
    std::suspend_always initial_suspend() noexcept { return {}; }
    struct final_awaiter {
      bool await_ready() const noexcept { return false; }
      std::coroutine_handle<> await_suspend(std::coroutine_handle<promise_type> h) const noexcept {
        return h.promise().continuation;
      }
      void await_resume() const noexcept {}
    };
    final_awaiter final_suspend() noexcept { return {}; }
    void return_value(T v) noexcept { value = v; }
    void unhandled_exception() noexcept { error = std::current_exception(); }
  };
  explicit task(std::coroutine_handle<promise_type> h) : h_(h) {}
  task(task&& o) noexcept : h_(std::exchange(o.h_, {})) {}
  ~task() {
    if (h_) h_.destroy();
  }
  bool await_ready() const noexcept { return false; }
  std::coroutine_handle<> await_suspend(std::coroutine_handle<> c) noexcept {
    h_.promise().continuation = c;
    return h_;
  }
  T await_resume() {
    if (h_.promise().error) std::rethrow_exception(h_.promise().error);
    return h_.promise().value;
  }
  T run() {
    h_.resume();
    return await_resume();
  }

private:
  std::coroutine_handle<promise_type> h_;
};

task<int> lazy_thrower(int code) {
  R r("lazy-local");
  if (code != 0) throw code;
  co_return 5;
}

task<int> catcher() {
  int sum = 0;
  for (int code = 0; code < 3; ++code) {
    try {
      sum += co_await lazy_thrower(code);
      printf("   code %d: no exception\n", code);
    } catch (int e) {
      printf("   code %d: caught int %d in catcher\n", code, e);
      sum += 100 * e;
    }
  }
  co_return sum;
}

struct rethrowing {
  struct promise_type {
    rethrowing get_return_object() noexcept {
      return rethrowing{std::coroutine_handle<promise_type>::from_promise(*this)};
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    void return_void() noexcept {}
    void unhandled_exception() {
      printf("    unhandled_exception (rethrow)\n");
      throw;
    }
  };
  std::coroutine_handle<promise_type> h;
};

rethrowing rethrower() {
  R r("rethrower-local");
  throw std::logic_error("from rethrower");
  co_return;
}

int main() {
  for (int x = 0; x < 2; ++x) {
    printf("eager_thrower(%d)\n", x);
    eager e = eager_thrower(x);
    printf("  returned to main, done=%d live=%d\n", (int)e.h.done(), live);
    try {
      int v = e.get();
      printf("  value %d\n", v);
    } catch (const std::exception& ex) {
      printf("  caught: %s\n", ex.what());
    }
  }
  printf("catcher: %d\n", catcher().run());
  rethrowing r = rethrower();
  try {
    printf("resuming rethrower\n");
    r.h.resume();
    printf("not reached\n");
  } catch (const std::logic_error& ex) {
    printf("caught from resume(): %s, done=%d live=%d\n", ex.what(), (int)r.h.done(), live);
  }
  r.h.destroy();
  printf("final live=%d\n", live);
  return live;
}
