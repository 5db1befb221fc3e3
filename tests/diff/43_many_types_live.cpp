// Values of many types live across suspension points: int8/16/32/64
// (signed and unsigned), bool, char, float, double, long double, pointers,
// a function pointer, a member-like struct, a union, an enum, __int128 and
// unsigned __int128. They are modified between suspensions and combined
// into a printed checksum at the end.
#include <coroutine>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <utility>

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

struct Mixed {
  char c;
  double d;
  short s;
  long long ll;
};
union U {
  std::uint32_t u;
  float f;
};
enum class Color : std::uint8_t { red = 1, green = 2, blue = 4 };

static int twice(int x) { return 2 * x; }
static int thrice(int x) { return 3 * x; }

static void print_u128(const char* label, unsigned __int128 v) {
  printf("%s=0x%016llx%016llx\n", label, (unsigned long long)(v >> 64), (unsigned long long)v);
}

co body(int seed, double* out_sum, unsigned __int128* out_wide) {
  std::int8_t i8 = (std::int8_t)(seed - 100);
  std::uint8_t u8 = (std::uint8_t)(seed * 3);
  std::int16_t i16 = (std::int16_t)(-1000 * seed);
  std::uint16_t u16 = (std::uint16_t)(60000 + seed);
  std::int32_t i32 = -123456 * seed;
  std::uint32_t u32 = 4000000000u + (std::uint32_t)seed;
  std::int64_t i64 = -(std::int64_t)1 << 40;
  std::uint64_t u64 = 0xfedcba9876543210ull ^ (std::uint64_t)seed;
  bool flag = seed % 2 == 0;
  char ch = (char)('a' + seed);
  float f = 1.5f * (float)seed;
  double d = 0.1 * seed;
  long double ld = 1.0L / 3.0L + seed;
  int arr[3] = {seed, seed + 1, seed + 2};
  int* ptr = &arr[1];
  const char* str = "literal";
  int (*fn)(int) = seed % 2 ? twice : thrice;
  Mixed m{'m', 2.25, (short)-7, 1LL << 50};
  U un;
  un.u = 0x3f800000u;  // only the u member is ever used
  Color col = Color::green;
  __int128 wide = (__int128)1 << 100;
  wide = -wide + seed;
  unsigned __int128 uwide = ((unsigned __int128)0x0123456789abcdefull << 64) | 0xfedcba9876543210ull;

  co_await std::suspend_always{};
  i8 = (std::int8_t)(i8 + 1);
  u8 = (std::uint8_t)(u8 + 250);  // wraps
  i16 = (std::int16_t)(i16 * 2);
  u16 = (std::uint16_t)(u16 + 6000);  // wraps
  i32 -= 1;
  u32 += 500000000u;  // wraps
  i64 *= 3;
  u64 = (u64 << 4) | (u64 >> 60);
  flag = !flag;
  ch = (char)(ch + 1);
  co_await std::suspend_always{};
  f *= 2.5f;
  d += 1.0 / 7.0;
  ld *= 2;
  ptr += 1;
  str += 3;
  m.d *= 2;
  m.s = (short)(m.s - 1);
  m.ll += seed;
  un.u += 1;
  col = Color::blue;
  co_await std::suspend_always{};
  wide = wide * 3 - 7;
  uwide = uwide * 5 + (unsigned)seed;
  int called = fn(21);
  co_await std::suspend_always{};

  printf("  ints: %d %u %d %u %d %u %lld %llx\n", (int)i8, (unsigned)u8, (int)i16, (unsigned)u16, (int)i32,
         (unsigned)u32, (long long)i64, (unsigned long long)u64);
  printf("  misc: flag=%d ch=%c f=%.3f d=%.6f ld=%.6Lf *ptr=%d str=%s fn=%d\n", (int)flag, ch, (double)f, d, ld, *ptr,
         str, called);
  printf("  struct: %c %.2f %d %lld union=%u color=%d\n", m.c, m.d, (int)m.s, m.ll, (unsigned)un.u, (int)col);
  print_u128("  wide", (unsigned __int128)wide);
  print_u128("  uwide", uwide);

  *out_sum = (double)i8 + u8 + i16 + u16 + (double)i32 + u32 + (double)i64 + (double)(u64 >> 32) + flag + ch + f +
             d + (double)ld + *ptr + str[0] + called + m.c + m.d + m.s + (double)m.ll + (double)un.u + (int)col;
  *out_wide = (unsigned __int128)wide + uwide;
}

int main() {
  double total = 0;
  unsigned __int128 wtotal = 0;
  for (int seed = 1; seed <= 3; ++seed) {
    double s = 0;
    unsigned __int128 w = 0;
    printf("seed %d\n", seed);
    co c = body(seed, &s, &w);
    while (!c.h.done()) c.h.resume();
    c.h.destroy();
    printf("  sum=%.4f\n", s);
    total += s;
    wtotal += w;
  }
  printf("total=%.4f\n", total);
  print_u128("wide total", wtotal);
  return 0;
}
