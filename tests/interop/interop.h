// Shared declarations of the interop test (see crates/llcoro/tests/lowering.rs).
//
// lib.cpp and main.cpp are compiled separately; in the mixed builds one of
// them has its coroutines lowered by llcoro and the other by LLVM's own
// coroutine passes. Coroutine handles cross the boundary both ways, as
// `std::coroutine_handle<>::address()` pointers through the C helpers below
// and as Gen/Task objects returned by C++ functions, so each side resumes,
// destroys, tests done() and reads the promise of frames built by the other.
// Only the frame header ABI is shared: resume function at offset 0, destroy
// function at 8, the promise at alignTo(16, alignof(promise)).
//
// Nothing here is a coroutine: every coroutine body lives in one .cpp file.
#pragma once

#include <coroutine>
#include <cstdio>
#include <exception>
#include <utility>

// Prints one transcript line; flushes so the order is kept if the program dies.
#define SAY(...)              \
  do {                        \
    std::printf(__VA_ARGS__); \
    std::printf("\n");        \
    std::fflush(stdout);      \
  } while (0)

// Prints on construction and destruction: shows which locals a destroy runs.
struct Noisy {
  const char* name;
  explicit Noisy(const char* n) : name(n) { SAY("  [%s] enter", name); }
  Noisy(const Noisy&) = delete;
  ~Noisy() { SAY("  [%s] leave", name); }
};

// A generator: the promise holds the last yielded int.
struct Gen {
  struct promise_type {
    int value = -1;
    Gen get_return_object() noexcept { return Gen(std::coroutine_handle<promise_type>::from_promise(*this)); }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    std::suspend_always yield_value(int v) noexcept {
      value = v;
      return {};
    }
    void return_void() noexcept {}
    void unhandled_exception() noexcept { std::terminate(); }
  };
  using handle = std::coroutine_handle<promise_type>;

  explicit Gen(handle h) : h(h) {}
  Gen(Gen&& o) noexcept : h(std::exchange(o.h, {})) {}
  Gen& operator=(Gen&&) = delete;
  ~Gen() {
    if (h) h.destroy();
  }
  // Gives up ownership: the caller destroys the frame through the address.
  void* release() noexcept { return std::exchange(h, {}).address(); }
  // Resumes; true while a value was produced (not at the final suspend).
  bool next() {
    h.resume();
    return !h.done();
  }
  int value() const { return h.promise().value; }

  handle h;
};

// A lazy task producing an int; awaiting it transfers control to it
// symmetrically, and its final suspend transfers back to the awaiter (or to
// the no-op coroutine when nobody awaits it).
struct Task {
  struct promise_type {
    int result = 0;
    std::coroutine_handle<> continuation = std::noop_coroutine();
    Task get_return_object() noexcept { return Task(std::coroutine_handle<promise_type>::from_promise(*this)); }
    std::suspend_always initial_suspend() noexcept { return {}; }
    struct FinalAwaiter {
      bool await_ready() const noexcept { return false; }
      std::coroutine_handle<> await_suspend(std::coroutine_handle<promise_type> h) const noexcept {
        return h.promise().continuation;
      }
      void await_resume() const noexcept {}
    };
    FinalAwaiter final_suspend() noexcept { return {}; }
    void return_value(int v) noexcept { result = v; }
    void unhandled_exception() noexcept { std::terminate(); }
  };
  using handle = std::coroutine_handle<promise_type>;

  explicit Task(handle h) : h(h) {}
  Task(Task&& o) noexcept : h(std::exchange(o.h, {})) {}
  Task& operator=(Task&&) = delete;
  ~Task() {
    if (h) h.destroy();
  }
  void* release() noexcept { return std::exchange(h, {}).address(); }

  // Awaiting a task: remember who to go back to, then jump into the task.
  bool await_ready() const noexcept { return false; }
  std::coroutine_handle<> await_suspend(std::coroutine_handle<> awaiter) noexcept {
    h.promise().continuation = awaiter;
    return h;
  }
  int await_resume() const noexcept { return h.promise().result; }

  handle h;
};

// ---- Defined in lib.cpp ----

// Coroutines.
Gen lib_range(int from, int to);  // yields from, from+1, ..., to-1
Task lib_add(int a, int b);       // co_returns a + b, after an inner lib task
Task lib_twice(Task inner);       // co_awaits inner (possibly main's task), returns twice its result

extern "C" {
// Handles as addresses.
void* lib_make_range(int from, int to);  // a lib_range frame, owned by the caller
void* lib_make_add(int a, int b);        // a lib_add frame, not started
void lib_resume(void* h);
void lib_destroy(void* h);
int lib_done(void* h);
int lib_gen_value(void* h);  // the Gen promise's value
int lib_task_result(void* h);
// Runs a generator (either side's) to completion, printing every value read
// through its promise; destroys it; returns the sum.
int lib_drain_gen(void* h);
// Resumes a generator n times (stopping early when done), then destroys it.
int lib_step_then_destroy(void* h, int n);
// Starts a not-yet-started task (either side's) and returns its result once
// it is done, destroying it.
int lib_run_task(void* h);
}
