// Lazy tasks (initial_suspend = suspend_always) with symmetric-transfer
// continuation: task<void>, task<int>, task<std::string>, nested awaits,
// a task that is created but never started.
#include <coroutine>
#include <cstdio>
#include <exception>
#include <string>
#include <utility>

template <class T>
struct result_holder {
  T value{};
  void return_value(T v) { value = std::move(v); }
  T take() { return std::move(value); }
};
template <>
struct result_holder<void> {
  void return_void() noexcept {}
  void take() {}
};

template <class T = void>
class task {
public:
  struct promise_type : result_holder<T> {
    std::coroutine_handle<> continuation = std::noop_coroutine();
    std::exception_ptr error;
    task get_return_object() noexcept {
      return task(std::coroutine_handle<promise_type>::from_promise(*this));
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    struct final_awaiter {
      bool await_ready() const noexcept { return false; }
      std::coroutine_handle<> await_suspend(std::coroutine_handle<promise_type> h) const noexcept {
        return h.promise().continuation;
      }
      void await_resume() const noexcept {}
    };
    final_awaiter final_suspend() noexcept { return {}; }
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
    return h_.promise().take();
  }
  T run() {
    h_.resume();
    if (!h_.done()) std::terminate();
    return await_resume();
  }
  bool done() const { return h_.done(); }

private:
  std::coroutine_handle<promise_type> h_;
};

static int started = 0;

task<int> leaf(int x) {
  ++started;
  printf("  leaf(%d) runs\n", x);
  co_return x * x;
}

task<int> add_leaves(int a, int b) {
  printf(" add_leaves(%d,%d) start\n", a, b);
  int ra = co_await leaf(a);
  int rb = co_await leaf(b);
  printf(" add_leaves got %d %d\n", ra, rb);
  co_return ra + rb;
}

task<std::string> describe(int n) {
  int s = co_await add_leaves(n, n + 1);
  std::string out = "sum=" + std::to_string(s);
  task<int> t = leaf(100);  // created...
  out += " pending-leaf-started=" + std::to_string(started);
  int r = co_await t;  // ...awaited later as an lvalue
  out += " leaf100=" + std::to_string(r);
  co_return out;
}

task<> say(const char* msg) {
  printf(" say: %s\n", msg);
  co_return;
}

task<> driver() {
  co_await say("hello");
  std::string d = co_await describe(3);
  printf(" describe -> %s\n", d.c_str());
  for (int i = 0; i < 3; ++i) co_await say("loop");
}

int main() {
  task<> t = driver();
  printf("created, nothing ran yet (started=%d, done=%d)\n", started, (int)t.done());
  t.run();
  printf("driver done=%d started=%d\n", (int)t.done(), started);
  {
    task<int> never = leaf(7);
    printf("never-started task destroyed, started=%d\n", started);
  }
  int v = add_leaves(5, 6).run();
  printf("direct run: %d\n", v);
  return 0;
}
