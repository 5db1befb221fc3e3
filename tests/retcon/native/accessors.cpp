// Drives accessors.ll: allocates the buffers, calls the continuations, prints what happens.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

static int live = 0;

extern "C" {
void *rc_alloc(int64_t n) {
  ++live;
  std::printf("alloc\n");
  return std::malloc(n);
}
void rc_free(void *p) {
  --live;
  std::printf("free\n");
  std::free(p);
}
void note(int k) { std::printf("note %d\n", k); }
void may_throw(int v) {
  if (v < 0)
    throw std::runtime_error("negative");
}
void bump(int64_t *total, int step) { *total += step; }

struct Yield {
  void *cont;
  int64_t value;
};
struct Lend {
  void *cont;
  int *slot;
};
Yield count(void *buffer, int64_t start);
Lend access_small(void *buffer, int *cell);
Lend access_big(void *buffer, int *cell);
}

typedef Yield (*CountCont)(void *, int);
typedef void (*LendCont)(void *, bool);

static void generate(int stop_at) {
  alignas(8) char buffer[8];
  Yield y = count(buffer, 100);
  for (int n = 0; y.cont; ++n) {
    std::printf("yield %lld\n", (long long)y.value);
    y = ((CountCont)y.cont)(buffer, n == stop_at ? -1 : 10);
  }
  std::printf("generator done\n");
}

static void lend(Lend (*f)(void *, int *), int value, bool abort) {
  alignas(8) char buffer[32];
  int cell = 7;
  Lend l = f(buffer, &cell);
  std::printf("lent %d\n", *l.slot);
  *l.slot = value;
  try {
    ((LendCont)l.cont)(buffer, abort);
  } catch (const std::exception &e) {
    std::printf("caught %s\n", e.what());
  }
  std::printf("cell %d\n", cell);
}

int main() {
  generate(-1);
  generate(2);
  for (auto f : {access_small, access_big}) {
    lend(f, 42, false);
    lend(f, 43, true);
    lend(f, -5, false);
  }
  std::printf("live %d\n", live);
  return live;
}
