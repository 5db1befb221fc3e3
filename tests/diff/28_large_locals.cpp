// Large local arrays (char buf[4096], int a[1000], a 8 KiB struct) live
// across suspension points, filled before and verified after suspending;
// a generator yielding slices of a large local buffer.
#include <coroutine>
#include <cstdio>
#include <exception>
#include <utility>

#include "support/generator.hpp"
struct co {
  struct promise_type {
    co get_return_object() noexcept { return co{std::coroutine_handle<promise_type>::from_promise(*this)}; }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    void return_void() noexcept {}
    void unhandled_exception() noexcept { std::terminate(); }
  };
  std::coroutine_handle<promise_type> h;
};

struct Matrix {
  double m[32][32];
};

static unsigned hash_bytes(const unsigned char* p, int n) {
  unsigned h = 2166136261u;
  for (int i = 0; i < n; ++i) h = (h ^ p[i]) * 16777619u;
  return h;
}

co big(int seed, unsigned* out) {
  char buf[4096];
  int a[1000];
  Matrix mx;
  for (int i = 0; i < 4096; ++i) buf[i] = (char)((i * 31 + seed) & 0x7f);
  for (int i = 0; i < 1000; ++i) a[i] = i * i - seed;
  co_await std::suspend_always{};
  unsigned h1 = hash_bytes(reinterpret_cast<const unsigned char*>(buf), 4096);
  long s = 0;
  for (int i = 0; i < 1000; ++i) s += a[i];
  printf("  after first suspend: h1=%u s=%ld\n", h1, s);
  for (int i = 0; i < 32; ++i)
    for (int j = 0; j < 32; ++j) mx.m[i][j] = (i == j) ? 1.0 + seed : (i + j) * 0.001;
  co_await std::suspend_always{};
  // modify in place across another suspension
  for (int i = 4095; i > 0; --i) buf[i] = buf[i - 1];
  buf[0] = 'Q';
  for (int i = 999; i > 0; --i) a[i] -= a[i - 1];
  co_await std::suspend_always{};
  double tr = 0;
  for (int i = 0; i < 32; ++i) tr += mx.m[i][i] + mx.m[i][31 - i];
  unsigned h2 = hash_bytes(reinterpret_cast<const unsigned char*>(buf), 4096);
  long s2 = 0;
  for (int i = 0; i < 1000; ++i) s2 += a[i] * (i % 7);
  printf("  end: h2=%u s2=%ld trace=%.4f\n", h2, s2, tr);
  *out = h1 ^ h2 ^ (unsigned)s2;
}

generator<int> chunks() {
  unsigned char data[3000];
  for (int i = 0; i < 3000; ++i) data[i] = (unsigned char)(i % 251);
  for (int off = 0; off < 3000; off += 500) {
    int sum = 0;
    for (int i = off; i < off + 500; ++i) sum += data[i];
    co_yield sum;
    data[off + 500 < 3000 ? off + 500 : 0] ^= 0xff;  // changes the next chunk
  }
}

int main() {
  unsigned total = 0;
  for (int seed = 0; seed < 3; ++seed) {
    unsigned out = 0;
    printf("seed %d\n", seed);
    co c = big(seed, &out);
    while (!c.h.done()) c.h.resume();
    c.h.destroy();
    total ^= out;
  }
  printf("total=%u\n", total);
  {
    // destroyed while suspended with all arrays live
    unsigned out = 0;
    co c = big(9, &out);
    c.h.resume();
    c.h.destroy();
  }
  auto g = chunks();
  printf("chunks:");
  while (g.next()) printf(" %d", g.value());
  printf("\n");
  return 0;
}
