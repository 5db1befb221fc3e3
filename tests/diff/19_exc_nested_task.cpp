// Exceptions from nested awaited tasks: a leaf several levels down throws,
// each level's unhandled_exception stores it and the awaiting level rethrows
// it from await_resume; one level translates it to another exception type,
// RAII objects at every level are destroyed, main catches the result.
#include <coroutine>
#include <cstdio>
#include <exception>
#include <stdexcept>
#include <string>
#include <utility>

static int live = 0;
struct R {
  int level;
  explicit R(int l) : level(l) { ++live; }
  ~R() {
    --live;
    printf("    ~R(level %d)\n", level);
  }
};

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
    void return_value(T v) noexcept { value = std::move(v); }
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
    return std::move(h_.promise().value);
  }
  T run() {
    h_.resume();
    return await_resume();
  }

private:
  std::coroutine_handle<promise_type> h_;
};

struct translated : std::runtime_error {
  using std::runtime_error::runtime_error;
};

task<int> level(int depth, int throw_at, int translate_at) {
  R r(depth);
  if (depth == throw_at) {
    printf("    level %d throws\n", depth);
    throw std::invalid_argument("leaf at depth " + std::to_string(depth));
  }
  if (depth == 0) co_return 1;
  if (depth == translate_at) {
    try {
      co_return 1 + co_await level(depth - 1, throw_at, translate_at);
    } catch (const std::invalid_argument& e) {
      printf("    level %d translates '%s'\n", depth, e.what());
      throw translated(std::string("translated: ") + e.what());
    }
  }
  int below = co_await level(depth - 1, throw_at, translate_at);
  printf("    level %d got %d\n", depth, below);
  co_return below + 1;
}

int trial(int throw_at, int translate_at) {
  printf("trial throw_at=%d translate_at=%d\n", throw_at, translate_at);
  try {
    int v = level(5, throw_at, translate_at).run();
    printf("  value %d\n", v);
    return v;
  } catch (const translated& e) {
    printf("  main caught translated: %s (live=%d)\n", e.what(), live);
    return -1;
  } catch (const std::exception& e) {
    printf("  main caught: %s (live=%d)\n", e.what(), live);
    return -2;
  }
}

int main() {
  int s = 0;
  s += trial(-1, -1);
  s += trial(0, -1);
  s += trial(2, -1);
  s += trial(1, 3);
  s += trial(4, 3);  // thrown above the translating level: not translated
  printf("sum=%d live=%d\n", s, live);
  return live;
}
