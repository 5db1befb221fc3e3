// Over-aligned locals (alignas(32), alignas(64)) live across suspension
// points. The alignment of each object is checked at run time and printed.
//
// Note: the coroutine frame is allocated with the promise's operator new,
// which here returns 64-byte aligned memory. (With a plain ::operator new,
// which only guarantees 16-byte alignment, clang's own lowering does not
// re-align the frame, so the natively compiled result would not be
// deterministic; see tests/diff/README.md.)
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

struct co {
  struct promise_type : aligned_alloc_base {
    co get_return_object() noexcept { return co{std::coroutine_handle<promise_type>::from_promise(*this)}; }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    void return_void() noexcept {}
    void unhandled_exception() noexcept { std::terminate(); }
  };
  std::coroutine_handle<promise_type> h;
  void run() {
    while (!h.done()) h.resume();
    h.destroy();
  }
};

struct alignas(64) Cache {
  long words[8];
  char tag;
};

struct alignas(32) Vec4 {
  double v[4];
};

template <class T>
static int mis(const T* p, int a) {
  return (int)(reinterpret_cast<std::uintptr_t>(p) % (std::uintptr_t)a);
}

co body(int seed, long* out) {
  char c1 = 'x';
  alignas(32) int a32[8];
  char c2 = 'y';
  alignas(64) unsigned char a64[100];
  Cache cache{};
  Vec4 vec{{1.0, 2.0, 3.0, 4.0}};
  short s = 3;
  for (int i = 0; i < 8; ++i) a32[i] = seed + i;
  for (int i = 0; i < 100; ++i) a64[i] = (unsigned char)(seed * 7 + i);
  for (int i = 0; i < 8; ++i) cache.words[i] = (long)seed << i;
  cache.tag = 'C';
  printf("  before: a32%%32=%d a64%%64=%d cache%%64=%d vec%%32=%d\n", mis(a32, 32), mis(a64, 64), mis(&cache, 64),
         mis(&vec, 32));
  co_await std::suspend_always{};
  printf("  after 1: a32%%32=%d a64%%64=%d cache%%64=%d vec%%32=%d\n", mis(a32, 32), mis(a64, 64), mis(&cache, 64),
         mis(&vec, 32));
  long sum = 0;
  for (int i = 0; i < 8; ++i) sum += a32[i];
  for (int i = 0; i < 100; ++i) sum += a64[i];
  co_await std::suspend_always{};
  for (int i = 0; i < 8; ++i) sum += cache.words[i];
  for (int i = 0; i < 4; ++i) sum += (long)(vec.v[i] * 10);
  {
    alignas(64) double inner[3] = {0.5, 1.5, 2.5};
    co_await std::suspend_always{};
    printf("  inner%%64=%d\n", mis(inner, 64));
    sum += (long)(inner[0] + inner[1] + inner[2]);
  }
  sum += c1 + c2 + s + cache.tag;
  *out = sum;
}

int main() {
  long total = 0;
  for (int seed = 1; seed <= 3; ++seed) {
    long out = 0;
    printf("seed %d\n", seed);
    body(seed, &out).run();
    printf("  sum=%ld\n", out);
    total += out;
  }
  printf("total=%ld\n", total);
  return 0;
}
