// A promise type declared alignas(32) (and one alignas(64)), with data in it
// used across suspensions; alignment of the promise is checked at run time,
// from_promise/promise() round trips are checked. Frames come from a
// promise operator new returning 64-byte aligned storage.
#include <coroutine>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <new>
#include <utility>

struct aligned_alloc_base {
  static void* operator new(std::size_t sz) { return ::operator new(sz, std::align_val_t{64}); }
  static void operator delete(void* p) noexcept { ::operator delete(p, std::align_val_t{64}); }
};

static int mis(const void* p, int a) { return (int)(reinterpret_cast<std::uintptr_t>(p) % (std::uintptr_t)a); }

template <int Align>
struct gen {
  struct alignas(Align) promise_type : aligned_alloc_base {
    double lanes[4] = {0, 0, 0, 0};
    int current = 0;
    gen get_return_object() noexcept { return gen{std::coroutine_handle<promise_type>::from_promise(*this)}; }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    std::suspend_always yield_value(int v) noexcept {
      current = v;
      for (int i = 0; i < 4; ++i) lanes[i] += v * (i + 1);
      return {};
    }
    void return_void() noexcept {}
    void unhandled_exception() noexcept { std::terminate(); }
  };
  std::coroutine_handle<promise_type> h;
  ~gen() { h.destroy(); }
};

// Awaiter giving the coroutine access to its own promise.
template <class P>
struct my_promise {
  P* p = nullptr;
  bool await_ready() const noexcept { return false; }
  bool await_suspend(std::coroutine_handle<P> h) noexcept {
    p = &h.promise();
    return false;
  }
  P& await_resume() const noexcept { return *p; }
};

template <int Align>
gen<Align> produce(int n) {
  auto& pr = co_await my_promise<typename gen<Align>::promise_type>{};
  printf("  inside: promise%%%d=%d\n", Align, mis(&pr, Align));
  alignas(Align) int local[4] = {1, 2, 3, 4};
  for (int i = 0; i < n; ++i) {
    co_yield i * local[i % 4];
    printf("  inside: lanes[3]=%.1f local%%%d=%d\n", pr.lanes[3], Align, mis(local, Align));
  }
}

template <int Align>
void drive(int n) {
  printf("alignas(%d) promise, alignof=%d\n", Align, (int)alignof(typename gen<Align>::promise_type));
  gen<Align> g = produce<Align>(n);
  auto& p = g.h.promise();
  printf("  outside: promise%%%d=%d\n", Align, mis(&p, Align));
  auto h2 = std::coroutine_handle<typename gen<Align>::promise_type>::from_promise(p);
  printf("  from_promise round trip: %d\n", (int)(h2 == g.h && &h2.promise() == &p));
  int sum = 0;
  while (true) {
    g.h.resume();
    if (g.h.done()) break;
    sum += p.current;
  }
  printf("  sum=%d lanes=%.1f,%.1f,%.1f,%.1f\n", sum, p.lanes[0], p.lanes[1], p.lanes[2], p.lanes[3]);
}

int main() {
  drive<32>(6);
  drive<64>(5);
  return 0;
}
