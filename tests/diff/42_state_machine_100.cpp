// A "state machine" style coroutine with 100 (+1) distinct suspension
// points in straight-line code, fed one input value per resumption by main
// through the promise. Locals are introduced along the way and stay live
// until the end; RAII guards are alive across the later points. The
// coroutine is run to completion for several inputs and also destroyed at
// various points.
#include <coroutine>
#include <cstdio>
#include <exception>
#include <utility>

static int guards = 0;
struct Guard {
  const char* n;
  explicit Guard(const char* s) : n(s) { ++guards; }
  ~Guard() {
    --guards;
    printf("  ~%s\n", n);
  }
};

struct machine {
  struct promise_type {
    int input = 0;
    int consumed = 0;
    machine get_return_object() noexcept {
      return machine{std::coroutine_handle<promise_type>::from_promise(*this)};
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    void return_void() noexcept {}
    void unhandled_exception() noexcept { std::terminate(); }
  };
  std::coroutine_handle<promise_type> h;
};

// Suspends; on resumption yields the input main stored in the promise.
struct input {
  machine::promise_type* p = nullptr;
  bool await_ready() const noexcept { return false; }
  void await_suspend(std::coroutine_handle<machine::promise_type> h) noexcept { p = &h.promise(); }
  int await_resume() const noexcept {
    ++p->consumed;
    return p->input;
  }
};

machine run_machine(long seed, long* out) {
  long acc = seed;
  int v = 0;
  v = co_await input{};  // suspend point 1
  acc = acc * 31 + v + 1;
  acc %= 1000000007L;
  v = co_await input{};  // suspend point 2
  switch (v & 3) { case 0: acc -= 2; break; case 1: acc += 4; break; default: acc = acc * 3 % 1000003; }
  acc %= 1000000007L;
  v = co_await input{};  // suspend point 3
  if (v % 3 == 0) acc ^= 3; else acc += v * 4;
  acc %= 1000000007L;
  v = co_await input{};  // suspend point 4
  acc = acc * 31 + v + 4;
  acc %= 1000000007L;
  v = co_await input{};  // suspend point 5
  switch (v & 3) { case 0: acc -= 5; break; case 1: acc += 10; break; default: acc = acc * 3 % 1000003; }
  acc %= 1000000007L;
  v = co_await input{};  // suspend point 6
  if (v % 3 == 0) acc ^= 6; else acc += v * 7;
  acc %= 1000000007L;
  v = co_await input{};  // suspend point 7
  acc = acc * 31 + v + 7;
  acc %= 1000000007L;
  v = co_await input{};  // suspend point 8
  switch (v & 3) { case 0: acc -= 8; break; case 1: acc += 16; break; default: acc = acc * 3 % 1000003; }
  acc %= 1000000007L;
  v = co_await input{};  // suspend point 9
  if (v % 3 == 0) acc ^= 9; else acc += v * 3;
  acc %= 1000000007L;
  v = co_await input{};  // suspend point 10
  acc = acc * 31 + v + 10;
  acc %= 1000000007L;
  long l10 = acc + 10;  // live until the end
  v = co_await input{};  // suspend point 11
  switch (v & 3) { case 0: acc -= 11; break; case 1: acc += 22; break; default: acc = acc * 3 % 1000003; }
  acc %= 1000000007L;
  v = co_await input{};  // suspend point 12
  if (v % 3 == 0) acc ^= 12; else acc += v * 6;
  acc %= 1000000007L;
  v = co_await input{};  // suspend point 13
  acc = acc * 31 + v + 13;
  acc %= 1000000007L;
  v = co_await input{};  // suspend point 14
  switch (v & 3) { case 0: acc -= 14; break; case 1: acc += 28; break; default: acc = acc * 3 % 1000003; }
  acc %= 1000000007L;
  v = co_await input{};  // suspend point 15
  if (v % 3 == 0) acc ^= 15; else acc += v * 2;
  acc %= 1000000007L;
  v = co_await input{};  // suspend point 16
  acc = acc * 31 + v + 16;
  acc %= 1000000007L;
  v = co_await input{};  // suspend point 17
  switch (v & 3) { case 0: acc -= 17; break; case 1: acc += 34; break; default: acc = acc * 3 % 1000003; }
  acc %= 1000000007L;
  v = co_await input{};  // suspend point 18
  if (v % 3 == 0) acc ^= 18; else acc += v * 5;
  acc %= 1000000007L;
  v = co_await input{};  // suspend point 19
  acc = acc * 31 + v + 19;
  acc %= 1000000007L;
  v = co_await input{};  // suspend point 20
  switch (v & 3) { case 0: acc -= 20; break; case 1: acc += 40; break; default: acc = acc * 3 % 1000003; }
  acc %= 1000000007L;
  long l20 = acc + 20;  // live until the end
  v = co_await input{};  // suspend point 21
  if (v % 3 == 0) acc ^= 21; else acc += v * 1;
  acc %= 1000000007L;
  v = co_await input{};  // suspend point 22
  acc = acc * 31 + v + 22;
  acc %= 1000000007L;
  v = co_await input{};  // suspend point 23
  switch (v & 3) { case 0: acc -= 23; break; case 1: acc += 46; break; default: acc = acc * 3 % 1000003; }
  acc %= 1000000007L;
  v = co_await input{};  // suspend point 24
  if (v % 3 == 0) acc ^= 24; else acc += v * 4;
  acc %= 1000000007L;
  v = co_await input{};  // suspend point 25
  acc = acc * 31 + v + 25;
  acc %= 1000000007L;
  v = co_await input{};  // suspend point 26
  switch (v & 3) { case 0: acc -= 26; break; case 1: acc += 52; break; default: acc = acc * 3 % 1000003; }
  acc %= 1000000007L;
  v = co_await input{};  // suspend point 27
  if (v % 3 == 0) acc ^= 27; else acc += v * 7;
  acc %= 1000000007L;
  v = co_await input{};  // suspend point 28
  acc = acc * 31 + v + 28;
  acc %= 1000000007L;
  v = co_await input{};  // suspend point 29
  switch (v & 3) { case 0: acc -= 29; break; case 1: acc += 58; break; default: acc = acc * 3 % 1000003; }
  acc %= 1000000007L;
  v = co_await input{};  // suspend point 30
  if (v % 3 == 0) acc ^= 30; else acc += v * 3;
  acc %= 1000000007L;
  long l30 = acc + 30;  // live until the end
  v = co_await input{};  // suspend point 31
  acc = acc * 31 + v + 31;
  acc %= 1000000007L;
  v = co_await input{};  // suspend point 32
  switch (v & 3) { case 0: acc -= 32; break; case 1: acc += 64; break; default: acc = acc * 3 % 1000003; }
  acc %= 1000000007L;
  v = co_await input{};  // suspend point 33
  if (v % 3 == 0) acc ^= 33; else acc += v * 6;
  acc %= 1000000007L;
  v = co_await input{};  // suspend point 34
  acc = acc * 31 + v + 34;
  acc %= 1000000007L;
  v = co_await input{};  // suspend point 35
  switch (v & 3) { case 0: acc -= 35; break; case 1: acc += 70; break; default: acc = acc * 3 % 1000003; }
  acc %= 1000000007L;
  v = co_await input{};  // suspend point 36
  if (v % 3 == 0) acc ^= 36; else acc += v * 2;
  acc %= 1000000007L;
  v = co_await input{};  // suspend point 37
  acc = acc * 31 + v + 37;
  acc %= 1000000007L;
  v = co_await input{};  // suspend point 38
  switch (v & 3) { case 0: acc -= 38; break; case 1: acc += 76; break; default: acc = acc * 3 % 1000003; }
  acc %= 1000000007L;
  v = co_await input{};  // suspend point 39
  if (v % 3 == 0) acc ^= 39; else acc += v * 5;
  acc %= 1000000007L;
  v = co_await input{};  // suspend point 40
  acc = acc * 31 + v + 40;
  acc %= 1000000007L;
  long l40 = acc + 40;  // live until the end
  v = co_await input{};  // suspend point 41
  switch (v & 3) { case 0: acc -= 41; break; case 1: acc += 82; break; default: acc = acc * 3 % 1000003; }
  acc %= 1000000007L;
  v = co_await input{};  // suspend point 42
  if (v % 3 == 0) acc ^= 42; else acc += v * 1;
  acc %= 1000000007L;
  v = co_await input{};  // suspend point 43
  acc = acc * 31 + v + 43;
  acc %= 1000000007L;
  v = co_await input{};  // suspend point 44
  switch (v & 3) { case 0: acc -= 44; break; case 1: acc += 88; break; default: acc = acc * 3 % 1000003; }
  acc %= 1000000007L;
  v = co_await input{};  // suspend point 45
  if (v % 3 == 0) acc ^= 45; else acc += v * 4;
  acc %= 1000000007L;
  v = co_await input{};  // suspend point 46
  acc = acc * 31 + v + 46;
  acc %= 1000000007L;
  v = co_await input{};  // suspend point 47
  switch (v & 3) { case 0: acc -= 47; break; case 1: acc += 94; break; default: acc = acc * 3 % 1000003; }
  acc %= 1000000007L;
  v = co_await input{};  // suspend point 48
  if (v % 3 == 0) acc ^= 48; else acc += v * 7;
  acc %= 1000000007L;
  v = co_await input{};  // suspend point 49
  acc = acc * 31 + v + 49;
  acc %= 1000000007L;
  v = co_await input{};  // suspend point 50
  switch (v & 3) { case 0: acc -= 50; break; case 1: acc += 100; break; default: acc = acc * 3 % 1000003; }
  acc %= 1000000007L;
  long l50 = acc + 50;  // live until the end
  Guard g50("g50");
  v = co_await input{};  // suspend point 51
  if (v % 3 == 0) acc ^= 51; else acc += v * 3;
  acc %= 1000000007L;
  v = co_await input{};  // suspend point 52
  acc = acc * 31 + v + 52;
  acc %= 1000000007L;
  v = co_await input{};  // suspend point 53
  switch (v & 3) { case 0: acc -= 53; break; case 1: acc += 106; break; default: acc = acc * 3 % 1000003; }
  acc %= 1000000007L;
  v = co_await input{};  // suspend point 54
  if (v % 3 == 0) acc ^= 54; else acc += v * 6;
  acc %= 1000000007L;
  v = co_await input{};  // suspend point 55
  acc = acc * 31 + v + 55;
  acc %= 1000000007L;
  v = co_await input{};  // suspend point 56
  switch (v & 3) { case 0: acc -= 56; break; case 1: acc += 112; break; default: acc = acc * 3 % 1000003; }
  acc %= 1000000007L;
  v = co_await input{};  // suspend point 57
  if (v % 3 == 0) acc ^= 57; else acc += v * 2;
  acc %= 1000000007L;
  v = co_await input{};  // suspend point 58
  acc = acc * 31 + v + 58;
  acc %= 1000000007L;
  v = co_await input{};  // suspend point 59
  switch (v & 3) { case 0: acc -= 59; break; case 1: acc += 118; break; default: acc = acc * 3 % 1000003; }
  acc %= 1000000007L;
  v = co_await input{};  // suspend point 60
  if (v % 3 == 0) acc ^= 60; else acc += v * 5;
  acc %= 1000000007L;
  long l60 = acc + 60;  // live until the end
  v = co_await input{};  // suspend point 61
  acc = acc * 31 + v + 61;
  acc %= 1000000007L;
  v = co_await input{};  // suspend point 62
  switch (v & 3) { case 0: acc -= 62; break; case 1: acc += 124; break; default: acc = acc * 3 % 1000003; }
  acc %= 1000000007L;
  v = co_await input{};  // suspend point 63
  if (v % 3 == 0) acc ^= 63; else acc += v * 1;
  acc %= 1000000007L;
  v = co_await input{};  // suspend point 64
  acc = acc * 31 + v + 64;
  acc %= 1000000007L;
  v = co_await input{};  // suspend point 65
  switch (v & 3) { case 0: acc -= 65; break; case 1: acc += 130; break; default: acc = acc * 3 % 1000003; }
  acc %= 1000000007L;
  v = co_await input{};  // suspend point 66
  if (v % 3 == 0) acc ^= 66; else acc += v * 4;
  acc %= 1000000007L;
  v = co_await input{};  // suspend point 67
  acc = acc * 31 + v + 67;
  acc %= 1000000007L;
  v = co_await input{};  // suspend point 68
  switch (v & 3) { case 0: acc -= 68; break; case 1: acc += 136; break; default: acc = acc * 3 % 1000003; }
  acc %= 1000000007L;
  v = co_await input{};  // suspend point 69
  if (v % 3 == 0) acc ^= 69; else acc += v * 7;
  acc %= 1000000007L;
  v = co_await input{};  // suspend point 70
  acc = acc * 31 + v + 70;
  acc %= 1000000007L;
  long l70 = acc + 70;  // live until the end
  v = co_await input{};  // suspend point 71
  switch (v & 3) { case 0: acc -= 71; break; case 1: acc += 142; break; default: acc = acc * 3 % 1000003; }
  acc %= 1000000007L;
  v = co_await input{};  // suspend point 72
  if (v % 3 == 0) acc ^= 72; else acc += v * 3;
  acc %= 1000000007L;
  v = co_await input{};  // suspend point 73
  acc = acc * 31 + v + 73;
  acc %= 1000000007L;
  v = co_await input{};  // suspend point 74
  switch (v & 3) { case 0: acc -= 74; break; case 1: acc += 148; break; default: acc = acc * 3 % 1000003; }
  acc %= 1000000007L;
  v = co_await input{};  // suspend point 75
  if (v % 3 == 0) acc ^= 75; else acc += v * 6;
  acc %= 1000000007L;
  {
    Guard g75("g75");
    v = co_await input{};  // suspend point 75b
    acc += v;
  }
  v = co_await input{};  // suspend point 76
  acc = acc * 31 + v + 76;
  acc %= 1000000007L;
  v = co_await input{};  // suspend point 77
  switch (v & 3) { case 0: acc -= 77; break; case 1: acc += 154; break; default: acc = acc * 3 % 1000003; }
  acc %= 1000000007L;
  v = co_await input{};  // suspend point 78
  if (v % 3 == 0) acc ^= 78; else acc += v * 2;
  acc %= 1000000007L;
  v = co_await input{};  // suspend point 79
  acc = acc * 31 + v + 79;
  acc %= 1000000007L;
  v = co_await input{};  // suspend point 80
  switch (v & 3) { case 0: acc -= 80; break; case 1: acc += 160; break; default: acc = acc * 3 % 1000003; }
  acc %= 1000000007L;
  long l80 = acc + 80;  // live until the end
  v = co_await input{};  // suspend point 81
  if (v % 3 == 0) acc ^= 81; else acc += v * 5;
  acc %= 1000000007L;
  v = co_await input{};  // suspend point 82
  acc = acc * 31 + v + 82;
  acc %= 1000000007L;
  v = co_await input{};  // suspend point 83
  switch (v & 3) { case 0: acc -= 83; break; case 1: acc += 166; break; default: acc = acc * 3 % 1000003; }
  acc %= 1000000007L;
  v = co_await input{};  // suspend point 84
  if (v % 3 == 0) acc ^= 84; else acc += v * 1;
  acc %= 1000000007L;
  v = co_await input{};  // suspend point 85
  acc = acc * 31 + v + 85;
  acc %= 1000000007L;
  v = co_await input{};  // suspend point 86
  switch (v & 3) { case 0: acc -= 86; break; case 1: acc += 172; break; default: acc = acc * 3 % 1000003; }
  acc %= 1000000007L;
  v = co_await input{};  // suspend point 87
  if (v % 3 == 0) acc ^= 87; else acc += v * 4;
  acc %= 1000000007L;
  v = co_await input{};  // suspend point 88
  acc = acc * 31 + v + 88;
  acc %= 1000000007L;
  v = co_await input{};  // suspend point 89
  switch (v & 3) { case 0: acc -= 89; break; case 1: acc += 178; break; default: acc = acc * 3 % 1000003; }
  acc %= 1000000007L;
  v = co_await input{};  // suspend point 90
  if (v % 3 == 0) acc ^= 90; else acc += v * 7;
  acc %= 1000000007L;
  long l90 = acc + 90;  // live until the end
  v = co_await input{};  // suspend point 91
  acc = acc * 31 + v + 91;
  acc %= 1000000007L;
  v = co_await input{};  // suspend point 92
  switch (v & 3) { case 0: acc -= 92; break; case 1: acc += 184; break; default: acc = acc * 3 % 1000003; }
  acc %= 1000000007L;
  v = co_await input{};  // suspend point 93
  if (v % 3 == 0) acc ^= 93; else acc += v * 3;
  acc %= 1000000007L;
  v = co_await input{};  // suspend point 94
  acc = acc * 31 + v + 94;
  acc %= 1000000007L;
  v = co_await input{};  // suspend point 95
  switch (v & 3) { case 0: acc -= 95; break; case 1: acc += 190; break; default: acc = acc * 3 % 1000003; }
  acc %= 1000000007L;
  v = co_await input{};  // suspend point 96
  if (v % 3 == 0) acc ^= 96; else acc += v * 6;
  acc %= 1000000007L;
  v = co_await input{};  // suspend point 97
  acc = acc * 31 + v + 97;
  acc %= 1000000007L;
  v = co_await input{};  // suspend point 98
  switch (v & 3) { case 0: acc -= 98; break; case 1: acc += 196; break; default: acc = acc * 3 % 1000003; }
  acc %= 1000000007L;
  v = co_await input{};  // suspend point 99
  if (v % 3 == 0) acc ^= 99; else acc += v * 2;
  acc %= 1000000007L;
  v = co_await input{};  // suspend point 100
  acc = acc * 31 + v + 100;
  acc %= 1000000007L;
  long l100 = acc + 100;  // live until the end
  *out = acc + l10 + l20 + l30 + l40 + l50 + l60 + l70 + l80 + l90 + l100;
}

static long drive(long seed, unsigned rng, int max_resumes) {
  long out = -1;
  machine m = run_machine(seed, &out);
  m.h.resume();  // run to the first suspension point
  int n = 0;
  while (!m.h.done() && n < max_resumes) {
    rng = rng * 1664525u + 1013904223u;
    m.h.promise().input = (int)(rng >> 16) % 1000;
    m.h.resume();
    ++n;
  }
  printf("seed=%ld resumes=%d consumed=%d done=%d out=%ld guards=%d\n", seed, n, m.h.promise().consumed,
         (int)m.h.done(), out, guards);
  m.h.destroy();
  return out;
}

int main() {
  long s = 0;
  for (long seed = 1; seed <= 4; ++seed) s += drive(seed, (unsigned)seed * 7919u, 1000);
  printf("checksum=%ld\n", s % 1000000007L);
  const int stops[] = {0, 1, 37, 49, 50, 74, 75, 76, 100, 101};
  for (int stop : stops) drive(9, 4242u, stop);
  return guards;
}
