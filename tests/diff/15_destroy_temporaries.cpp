// Temporaries alive across co_await (within one full-expression), including
// a conditionally created temporary, destroyed either normally at the end of
// the full-expression or by destroying the suspended coroutine.
#include <coroutine>
#include <cstdio>
#include <exception>
#include <utility>

static int live = 0;

struct Temp {
  int v;
  explicit Temp(int x) : v(x) {
    ++live;
    printf("    Temp(%d)\n", v);
  }
  Temp(const Temp&) = delete;
  ~Temp() {
    --live;
    printf("    ~Temp(%d)\n", v);
  }
  int plus(int x) const { return v + x; }
  const Temp& self() const { return *this; }
};

struct co {
  struct promise_type {
    co get_return_object() noexcept { return co{std::coroutine_handle<promise_type>::from_promise(*this)}; }
    std::suspend_never initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    void return_void() noexcept {}
    void unhandled_exception() noexcept { std::terminate(); }
  };
  std::coroutine_handle<promise_type> h;
};

struct val {
  int v;
  bool await_ready() const noexcept { return false; }
  void await_suspend(std::coroutine_handle<>) const noexcept { printf("    suspended (awaiting %d)\n", v); }
  int await_resume() const noexcept { return v; }
};

// An awaitable with its own destructor: the awaiter object itself is a
// temporary living across the suspension.
struct noisy_awaiter {
  int v;
  explicit noisy_awaiter(int x) : v(x) { printf("    awaiter(%d) ctor\n", v); }
  ~noisy_awaiter() { printf("    awaiter(%d) dtor\n", v); }
  bool await_ready() const noexcept { return false; }
  void await_suspend(std::coroutine_handle<>) const noexcept {}
  int await_resume() const noexcept { return v; }
};

co body(int flag, int* out) {
  // Temp constructed, then suspension, then Temp destroyed at the ';'.
  int r1 = Temp(1).plus(co_await val{10});
  printf("    r1=%d\n", r1);
  // Conditional temporary: only created when flag is set.
  int r2 = flag ? Temp(2).plus(co_await val{20}) : co_await val{21};
  printf("    r2=%d\n", r2);
  // Two temporaries alive across one suspension.
  int r3 = Temp(3).self().plus(Temp(4).plus(co_await val{30}));
  printf("    r3=%d\n", r3);
  // Sequenced (&&) suspensions in one full-expression; the awaiter object is
  // itself a temporary with a destructor, Temp(7) only exists if the left
  // operand is true.
  bool both = Temp(6).plus(co_await noisy_awaiter(31)) > 36 + flag * 5 && Temp(7).plus(co_await val{32}) > 0;
  printf("    both=%d\n", (int)both);
  // Lifetime-extended temporary (a local reference) across a suspension.
  const Temp& ext = Temp(5);
  int r4 = ext.plus(co_await val{40});
  printf("    r4=%d\n", r4);
  *out = r1 + r2 + r3 + r4 + (both ? 1000 : 0);
}

int run(int flag, int resumes) {
  int out = 0;
  printf("run(flag=%d, resumes=%d)\n", flag, resumes);
  co c = body(flag, &out);
  for (int i = 0; i < resumes && !c.h.done(); ++i) {
    printf("  resume\n");
    c.h.resume();
  }
  printf("  destroy (done=%d, live=%d)\n", (int)c.h.done(), live);
  c.h.destroy();
  printf("  out=%d live=%d\n", out, live);
  return live;
}

int main() {
  int leaks = 0;
  for (int k = 0; k <= 6; ++k) leaks += run(1, k);
  leaks += run(0, 1);
  leaks += run(0, 4);
  leaks += run(0, 10);
  return leaks;
}
