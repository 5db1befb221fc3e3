// The library side of the interop test: coroutines whose frames main.cpp
// drives, and helpers that drive main.cpp's frames through their addresses.
#include "interop.h"

Gen lib_range(int from, int to) {
  Noisy guard("lib_range");
  for (int i = from; i < to; ++i) co_yield i;
  SAY("  lib_range(%d, %d) finished", from, to);
}

// The inner task of lib_add: also lazy, awaited symmetrically.
static Task lib_square(int x) {
  SAY("  lib_square(%d)", x);
  co_return x * x;
}

Task lib_add(int a, int b) {
  Noisy guard("lib_add");
  int sq = co_await lib_square(a);  // symmetric transfer lib -> lib and back
  SAY("  lib_add: %d^2 = %d, adding %d", a, sq, b);
  co_return a + b;
}

Task lib_twice(Task inner) {
  SAY("  lib_twice: awaiting the inner task");
  int v = co_await inner;  // the inner task may be main's: lib -> main -> lib
  SAY("  lib_twice: inner gave %d", v);
  co_return 2 * v;
}

extern "C" {

void* lib_make_range(int from, int to) { return lib_range(from, to).release(); }

void* lib_make_add(int a, int b) { return lib_add(a, b).release(); }

void lib_resume(void* h) { std::coroutine_handle<>::from_address(h).resume(); }

void lib_destroy(void* h) { std::coroutine_handle<>::from_address(h).destroy(); }

int lib_done(void* h) { return std::coroutine_handle<>::from_address(h).done() ? 1 : 0; }

int lib_gen_value(void* h) { return Gen::handle::from_address(h).promise().value; }

int lib_task_result(void* h) { return Task::handle::from_address(h).promise().result; }

int lib_drain_gen(void* h) {
  auto g = Gen::handle::from_address(h);
  int sum = 0;
  for (;;) {
    g.resume();
    if (g.done()) break;
    int v = g.promise().value;
    SAY("lib: drained %d", v);
    sum += v;
  }
  SAY("lib: generator done, destroying it");
  g.destroy();
  return sum;
}

int lib_step_then_destroy(void* h, int n) {
  auto g = Gen::handle::from_address(h);
  int last = -1;
  for (int i = 0; i < n && !g.done(); ++i) {
    g.resume();
    if (!g.done()) last = g.promise().value;
  }
  SAY("lib: stepped %d times, last %d, done=%d; destroying", n, last, g.done() ? 1 : 0);
  g.destroy();
  return last;
}

int lib_run_task(void* h) {
  auto t = Task::handle::from_address(h);
  SAY("lib: starting task, done=%d", t.done() ? 1 : 0);
  t.resume();  // runs to its final suspend; awaits inside transfer symmetrically
  int r = t.promise().result;
  SAY("lib: task done=%d result=%d", t.done() ? 1 : 0, r);
  t.destroy();
  return r;
}

}  // extern "C"
