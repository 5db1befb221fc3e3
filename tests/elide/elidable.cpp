// Awaited tasks marked [[clang::coro_await_elidable]] whose promise has an allocator of its own
// that counts frames: LLVM 20+ elides each directly awaited child's frame into its parent's
// (CoroAnnotationElide, from the call's `coro_elide_safe` attribute) at -O2, whatever the allocator
// does, so the count printed is the number of frames left on the heap.
#include <coroutine>
#include <cstdio>
#include <cstdlib>
#include <utility>

static int frames_allocated = 0;

struct [[clang::coro_await_elidable]] Task {
  struct promise_type {
    long value = 0;
    std::coroutine_handle<> cont;
    static void* operator new(std::size_t n) {
      ++frames_allocated;
      return std::malloc(n);
    }
    static void operator delete(void* p) { std::free(p); }
    Task get_return_object() { return Task{std::coroutine_handle<promise_type>::from_promise(*this)}; }
    std::suspend_always initial_suspend() noexcept { return {}; }
    struct Final {
      bool await_ready() noexcept { return false; }
      std::coroutine_handle<> await_suspend(std::coroutine_handle<promise_type> h) noexcept {
        auto c = h.promise().cont;
        return c ? c : std::noop_coroutine();
      }
      void await_resume() noexcept {}
    };
    Final final_suspend() noexcept { return {}; }
    void return_value(long v) { value = v; }
    void unhandled_exception() { std::abort(); }
  };
  std::coroutine_handle<promise_type> h;
  explicit Task(std::coroutine_handle<promise_type> h) : h(h) {}
  Task(Task&& o) noexcept : h(std::exchange(o.h, {})) {}
  ~Task() {
    if (h) h.destroy();
  }
  bool await_ready() { return false; }
  std::coroutine_handle<> await_suspend(std::coroutine_handle<> c) {
    h.promise().cont = c;
    return h;
  }
  long await_resume() { return h.promise().value; }
};

Task leaf(long x) { co_return x * 3 + 1; }

Task middle(long x) {
  long a = co_await leaf(x);
  long b = co_await leaf(a);
  co_return a + b;
}

Task top(int n) {
  long sum = 0;
  for (int i = 0; i < n; ++i) sum += co_await middle(i);
  co_return sum;
}

int main() {
  Task t = top(20);
  t.h.resume();
  std::printf("sum %ld, frames on the heap %d\n", t.h.promise().value, frames_allocated);
  return 0;
}
