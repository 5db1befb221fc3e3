// The program side of the interop test: drives lib.cpp's coroutine frames,
// and hands its own coroutine frames to lib.cpp to drive. Prints a
// deterministic transcript; the exit status is a checksum of the results.
#include "interop.h"

static Gen main_countdown(int n) {
  Noisy guard("main_countdown");
  for (int i = n; i > 0; --i) co_yield i * 10;
  SAY("  main_countdown(%d) finished", n);
}

static Task main_const(int v) {
  SAY("  main_const(%d)", v);
  co_return v;
}

// main -> lib -> lib -> main by symmetric transfer.
static Task main_mul(int a, int b) {
  Noisy guard("main_mul");
  int s = co_await lib_add(a, b);
  SAY("  main_mul: lib_add(%d, %d) = %d", a, b, s);
  co_return s * b;
}

// main -> lib -> main -> lib -> main.
static Task main_outer(int v) {
  int t = co_await lib_twice(main_const(v));
  SAY("  main_outer: lib_twice gave %d", t);
  co_return t + 1;
}

static unsigned checksum = 7;
static void mix(int v) { checksum = checksum * 31u + static_cast<unsigned>(v); }

int main() {
  SAY("1. main drives a lib generator through its address");
  {
    void* p = lib_make_range(3, 6);
    auto any = std::coroutine_handle<>::from_address(p);
    auto typed = Gen::handle::from_address(p);
    for (int step = 0;; ++step) {
      if (step % 2 == 0) {
        any.resume();
      } else {
        lib_resume(p);
      }
      bool done_main = any.done();
      int done_lib = lib_done(p);
      SAY("main: step %d done=%d/%d", step, done_main ? 1 : 0, done_lib);
      if (done_main) break;
      SAY("main: value %d (lib reads %d)", typed.promise().value, lib_gen_value(p));
      mix(typed.promise().value);
    }
    any.destroy();
  }

  SAY("2. main iterates a lib generator object");
  {
    Gen g = lib_range(10, 13);
    while (g.next()) {
      SAY("main: got %d", g.value());
      mix(g.value());
    }
  }

  SAY("3. main destroys a lib generator early");
  {
    Gen g = lib_range(20, 100);
    g.next();
    g.next();
    SAY("main: at %d, done=%d; dropping it", g.value(), g.h.done() ? 1 : 0);
    mix(g.value());
  }

  SAY("4. lib drains a main generator");
  mix(lib_drain_gen(main_countdown(3).release()));

  SAY("5. lib destroys a main generator early");
  mix(lib_step_then_destroy(main_countdown(10).release(), 2));

  SAY("6. lib resumes, tests and destroys a main generator step by step");
  {
    void* p = main_countdown(2).release();
    while (true) {
      lib_resume(p);
      if (lib_done(p)) break;
      SAY("main: lib reads %d, main reads %d", lib_gen_value(p), Gen::handle::from_address(p).promise().value);
      mix(lib_gen_value(p));
    }
    SAY("main: done seen from main=%d", std::coroutine_handle<>::from_address(p).done() ? 1 : 0);
    lib_destroy(p);
  }

  SAY("7. lib runs a main task that awaits lib tasks");
  mix(lib_run_task(main_mul(3, 4).release()));

  SAY("8. main runs lib tasks");
  {
    Task t = lib_add(5, 6);
    SAY("main: before the first resume done=%d", t.h.done() ? 1 : 0);
    t.h.resume();
    SAY("main: done=%d result=%d", t.h.done() ? 1 : 0, t.h.promise().result);
    mix(t.h.promise().result);

    void* p = lib_make_add(1, 2);
    std::coroutine_handle<>::from_address(p).resume();
    SAY("main: done=%d/%d result=%d/%d", std::coroutine_handle<>::from_address(p).done() ? 1 : 0, lib_done(p),
        Task::handle::from_address(p).promise().result, lib_task_result(p));
    mix(lib_task_result(p));
    lib_destroy(p);
  }

  SAY("9. main runs a lib task that awaits a main task");
  {
    Task t = lib_twice(main_const(21));
    t.h.resume();
    SAY("main: done=%d result=%d", t.h.done() ? 1 : 0, t.h.promise().result);
    mix(t.h.promise().result);
  }

  SAY("10. lib runs a main task awaiting a lib task awaiting a main task");
  mix(lib_run_task(main_outer(5).release()));

  SAY("11. main destroys a lib task that never ran, lib destroys a main one");
  {
    Task t = lib_add(100, 1);
    void* p = main_mul(7, 8).release();
    lib_destroy(p);
  }

  SAY("checksum %u", checksum);
  return static_cast<int>(checksum % 97u) + 1;
}
