// get_return_object_on_allocation_failure: the promise's noexcept
// operator new returns nullptr when a budget is exhausted and the coroutine
// call then yields the fallback return object without running the body.
// Allocation counts are printed (coroutines are noinline so the frames
// cannot be elided by the optimizer).
#include <coroutine>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <new>
#include <utility>

static int budget = 0;
static int n_alloc = 0, n_fail = 0, n_free = 0, bodies_run = 0;

class maybe_task {
public:
  struct promise_type {
    int value = 0;
    static void* operator new(std::size_t sz) noexcept {
      if (budget <= 0) {
        ++n_fail;
        return nullptr;
      }
      --budget;
      ++n_alloc;
      return std::malloc(sz);
    }
    static void operator delete(void* p) noexcept {
      ++n_free;
      std::free(p);
    }
    static maybe_task get_return_object_on_allocation_failure() noexcept { return maybe_task(nullptr); }
    maybe_task get_return_object() noexcept {
      return maybe_task(std::coroutine_handle<promise_type>::from_promise(*this));
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    void return_value(int v) noexcept { value = v; }
    void unhandled_exception() noexcept { std::terminate(); }
  };
  explicit maybe_task(std::coroutine_handle<promise_type> h) : h_(h) {}
  maybe_task(std::nullptr_t) : h_(nullptr) {}
  maybe_task(maybe_task&& o) noexcept : h_(std::exchange(o.h_, {})) {}
  ~maybe_task() {
    if (h_) h_.destroy();
  }
  bool valid() const { return (bool)h_; }
  int get() {
    while (!h_.done()) h_.resume();
    return h_.promise().value;
  }

private:
  std::coroutine_handle<promise_type> h_;
};

struct Param {
  int v;
  explicit Param(int x) : v(x) {}
  Param(const Param& o) : v(o.v) { printf("    Param copied (%d)\n", v); }
  ~Param() {}
};

[[gnu::noinline]] maybe_task compute(Param p, int k) {
  ++bodies_run;
  int acc = p.v;
  for (int i = 0; i < k; ++i) {
    acc = acc * 3 + i;
    co_await std::suspend_always{};
  }
  co_return acc;
}

int main() {
  budget = 3;
  int sum = 0;
  for (int i = 0; i < 5; ++i) {
    maybe_task t = compute(Param(i), 3);
    if (t.valid()) {
      int v = t.get();
      sum += v;
      printf("call %d: allocated, value=%d\n", i, v);
    } else {
      printf("call %d: allocation failed, fallback object\n", i);
    }
  }
  printf("alloc=%d fail=%d free=%d bodies_run=%d sum=%d\n", n_alloc, n_fail, n_free, bodies_run, sum);
  budget = 1;
  {
    maybe_task a = compute(Param(100), 2);
    maybe_task b = compute(Param(200), 2);
    printf("a valid=%d b valid=%d\n", (int)a.valid(), (int)b.valid());
  }
  printf("alloc=%d fail=%d free=%d bodies_run=%d\n", n_alloc, n_fail, n_free, bodies_run);
  return n_alloc == n_free ? 0 : 1;
}
