// Parameters with non-trivial copy/move constructors and destructors:
// the coroutine frame holds its own copy of each by-value parameter, the
// caller's parameter objects are destroyed at the end of the call
// expression, and the frame copies are destroyed with the frame (at
// completion with suspend_never final, or by destroy() while suspended).
#include <coroutine>
#include <cstdio>
#include <exception>
#include <utility>

static int live = 0;
static int next_id = 1;

struct Tracked {
  int id;
  int value;
  explicit Tracked(int v) : id(next_id++), value(v) {
    ++live;
    printf("    Tracked#%d(%d) ctor\n", id, value);
  }
  Tracked(const Tracked& o) : id(next_id++), value(o.value) {
    ++live;
    printf("    Tracked#%d copy from #%d\n", id, o.id);
  }
  Tracked(Tracked&& o) noexcept : id(next_id++), value(o.value) {
    o.value = -1;
    ++live;
    printf("    Tracked#%d move from #%d\n", id, o.id);
  }
  ~Tracked() {
    --live;
    printf("    Tracked#%d(%d) dtor\n", id, value);
  }
};

// Copy-only type (no move constructor): the frame copy uses the copy ctor.
struct CopyOnly {
  int v;
  explicit CopyOnly(int x) : v(x) { ++live; }
  CopyOnly(const CopyOnly& o) : v(o.v) {
    ++live;
    printf("    CopyOnly copy (%d)\n", v);
  }
  ~CopyOnly() {
    --live;
    printf("    CopyOnly dtor (%d)\n", v);
  }
};

struct detached {
  struct promise_type {
    ~promise_type() { printf("    promise dtor\n"); }
    detached get_return_object() noexcept { return {}; }
    std::suspend_never initial_suspend() noexcept { return {}; }
    std::suspend_never final_suspend() noexcept { return {}; }
    void return_void() noexcept {}
    void unhandled_exception() noexcept { std::terminate(); }
  };
};

struct owned {
  struct promise_type {
    owned get_return_object() noexcept { return owned{std::coroutine_handle<promise_type>::from_promise(*this)}; }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    void return_void() noexcept {}
    void unhandled_exception() noexcept { std::terminate(); }
  };
  std::coroutine_handle<promise_type> h;
};

static std::coroutine_handle<> parked;
struct park {
  bool await_ready() const noexcept { return false; }
  void await_suspend(std::coroutine_handle<> h) const noexcept { parked = h; }
  void await_resume() const noexcept {}
};

detached fire_and_forget(Tracked t, CopyOnly c) {
  printf("    body: t#%d=%d c=%d\n", t.id, t.value, c.v);
  co_await park{};
  printf("    body resumed: t#%d=%d\n", t.id, t.value);
}

owned held(Tracked a, Tracked b) {
  printf("    held body: a#%d b#%d\n", a.id, b.id);
  co_await std::suspend_always{};
  printf("    held resumed: sum=%d\n", a.value + b.value);
}

int main() {
  printf("call fire_and_forget with temporaries\n");
  fire_and_forget(Tracked(5), CopyOnly(6));
  printf("returned; live=%d\n", live);
  printf("resume parked\n");
  parked.resume();  // runs to completion; frame self-destroys
  printf("after completion live=%d\n", live);

  printf("call held with an lvalue and a temporary\n");
  Tracked keep(1);
  owned o = held(keep, Tracked(2));
  printf("returned; live=%d\n", live);
  o.h.destroy();  // destroyed at the initial suspend point, never started
  printf("destroyed unstarted; live=%d\n", live);

  printf("call held again, resume once, destroy while suspended\n");
  owned o2 = held(Tracked(3), std::move(keep));
  o2.h.resume();
  o2.h.destroy();
  printf("end of main scope; live=%d\n", live);
  return 0;
}
