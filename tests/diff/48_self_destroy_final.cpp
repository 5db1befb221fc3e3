// Coroutines destroying themselves: a final awaiter that calls
// h.destroy() in await_suspend and returns a continuation handle (or
// noop); a detached task that is destroyed by its parent while suspended;
// destroying a suspended child coroutine from inside another coroutine.
#include <coroutine>
#include <cstdio>
#include <exception>
#include <utility>

static int frames = 0;

struct detached {
  struct promise_type {
    std::coroutine_handle<> continuation;
    const char* name;
    promise_type(const char* n, auto&&...) : name(n) {
      ++frames;
      printf("  [%s] frame created\n", name);
    }
    ~promise_type() {
      --frames;
      printf("  [%s] frame destroyed\n", name);
    }
    detached get_return_object() noexcept {
      return detached{std::coroutine_handle<promise_type>::from_promise(*this)};
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    struct final_awaiter {
      bool await_ready() const noexcept { return false; }
      std::coroutine_handle<> await_suspend(std::coroutine_handle<promise_type> h) const noexcept {
        std::coroutine_handle<> next = h.promise().continuation;
        h.destroy();  // the frame (and the awaiter's storage) is gone after this
        return next ? next : std::noop_coroutine();
      }
      void await_resume() const noexcept {}
    };
    final_awaiter final_suspend() noexcept { return {}; }
    void return_void() noexcept {}
    void unhandled_exception() noexcept { std::terminate(); }
  };
  std::coroutine_handle<promise_type> h;
};

static std::coroutine_handle<> parked[8];
static int nparked = 0;
struct park {
  bool await_ready() const noexcept { return false; }
  void await_suspend(std::coroutine_handle<> h) const noexcept { parked[nparked++] = h; }
  void await_resume() const noexcept {}
};

struct Guard {
  const char* n;
  ~Guard() { printf("  ~Guard(%s)\n", n); }
};

detached child(const char* name, int steps) {
  Guard g{name};
  for (int i = 0; i < steps; ++i) {
    printf("  [%s] step %d\n", name, i);
    co_await park{};
  }
}

// Starts a child, continues when the child finishes (child's final awaiter
// transfers back here after destroying the child).
struct join_child {
  detached d;
  bool await_ready() const noexcept { return false; }
  std::coroutine_handle<> await_suspend(std::coroutine_handle<> h) noexcept {
    d.h.promise().continuation = h;
    return d.h;
  }
  void await_resume() const noexcept {}
};

detached parent(const char* name) {
  Guard g{name};
  printf("  [%s] starting child\n", name);
  co_await join_child{child("child-of-parent", 0)};
  printf("  [%s] child joined, frames=%d\n", name, frames);
  detached victim = child("victim", 5);
  victim.h.resume();  // runs to its first park
  --nparked;          // forget its parked handle: we destroy it ourselves
  printf("  [%s] destroying suspended victim\n", name);
  victim.h.destroy();
  co_await park{};
  printf("  [%s] resumed, finishing\n", name);
}

int main() {
  printf("self-destroying child run by main:\n");
  detached a = child("a", 2);
  a.h.resume();
  while (nparked > 0) parked[--nparked].resume();
  printf("frames=%d\n", frames);

  printf("parent/child:\n");
  detached p = parent("parent");
  p.h.resume();
  while (nparked > 0) parked[--nparked].resume();
  printf("frames=%d\n", frames);
  return frames;
}
