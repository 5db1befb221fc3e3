// co_return values of different types: int, double, bool, char, long long,
// std::string, a struct, a large struct, std::unique_ptr (move-only),
// co_return with braced initializers, co_return of a co_await expression,
// and co_return of a local (implicitly moved).
#include <coroutine>
#include <cstdio>
#include <exception>
#include <memory>
#include <string>
#include <utility>

#include "support/task.hpp"
struct Pair {
  int a;
  double b;
};
struct Big {
  long v[16];
  char name[12];
};

task<int> ret_int() { co_return -42; }
task<double> ret_double() { co_return 3.0 / 8.0; }
task<bool> ret_bool(int x) { co_return x > 3; }
task<char> ret_char() { co_return 'Z'; }
task<long long> ret_ll() { co_return 1LL << 40; }
task<std::string> ret_string(int n) {
  std::string s;
  for (int i = 0; i < n; ++i) s += (char)('a' + i % 26);
  co_await std::suspend_never{};
  co_return s;  // implicit move of a local
}
task<Pair> ret_pair() { co_return {7, 2.5}; }  // braced init
task<Big> ret_big() {
  Big b{};
  for (int i = 0; i < 16; ++i) b.v[i] = i * 1000;
  b.name[0] = 'b';
  b.name[1] = 'i';
  b.name[2] = 'g';
  co_await std::suspend_never{};
  co_return b;
}
task<std::unique_ptr<int>> ret_unique(int v) {
  auto p = std::make_unique<int>(v);
  co_await std::suspend_never{};
  co_return p;
}
task<int> ret_awaited() { co_return co_await ret_int() * 2; }
task<std::string> ret_conditional(bool b) {
  if (b) co_return "short";
  co_return std::string(3, 'x') + std::to_string(co_await ret_ll());
}

task<int> all() {
  int i = co_await ret_int();
  double d = co_await ret_double();
  bool b1 = co_await ret_bool(2), b2 = co_await ret_bool(9);
  char c = co_await ret_char();
  long long ll = co_await ret_ll();
  std::string s = co_await ret_string(40);
  Pair p = co_await ret_pair();
  Big big = co_await ret_big();
  std::unique_ptr<int> up = co_await ret_unique(99);
  int aw = co_await ret_awaited();
  std::string c1 = co_await ret_conditional(true), c2 = co_await ret_conditional(false);
  printf("int=%d double=%.4f bools=%d%d char=%c ll=%lld\n", i, d, (int)b1, (int)b2, c, ll);
  printf("string=%s (len %zu)\n", s.c_str(), s.size());
  long bs = 0;
  for (long v : big.v) bs += v;
  printf("pair={%d,%.1f} big.sum=%ld big.name=%s unique=%d awaited=%d\n", p.a, p.b, bs, big.name, *up, aw);
  printf("conditional: %s / %s\n", c1.c_str(), c2.c_str());
  co_return i + (int)(d * 8) + c + (int)(ll >> 38) + (int)s.size() + p.a + *up + aw;
}

int main() {
  int r = all().run();
  printf("checksum=%d\n", r);
  return 0;
}
