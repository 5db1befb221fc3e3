// Promise-provided operator new/delete: counts allocations and frees,
// sized operator delete, and a "leading allocator" overload of operator new
// that receives the coroutine's arguments (an arena). Coroutine functions
// are noinline so the optimizer cannot elide the frame allocations, which
// would change the printed counts.
#include <coroutine>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <new>
#include <utility>

static int n_new = 0, n_delete = 0, n_sized_ok = 0;
static std::size_t outstanding = 0;

struct arena {
  alignas(std::max_align_t) unsigned char buf[1 << 14];
  std::size_t used = 0;
  int allocs = 0;
  void* take(std::size_t n) {
    n = (n + 15) & ~std::size_t(15);
    if (used + n > sizeof buf) return nullptr;
    void* p = buf + used;
    used += n;
    ++allocs;
    return p;
  }
};

struct counted_promise_base {
  static void* operator new(std::size_t sz) {
    ++n_new;
    outstanding += sz;
    // 16-byte header remembers the size so operator delete can check it.
    unsigned char* p = static_cast<unsigned char*>(std::malloc(sz + 16));
    if (!p) throw std::bad_alloc();
    *reinterpret_cast<std::size_t*>(p) = sz;
    return p + 16;
  }
  // Arena overload: selected when the coroutine's first parameter is arena&.
  template <class... Rest>
  static void* operator new(std::size_t sz, arena& a, Rest&&...) {
    void* p = a.take(sz);
    if (!p) throw std::bad_alloc();
    return p;
  }
  static void operator delete(void* p, std::size_t sz) noexcept;
};

static arena the_arena;

void counted_promise_base::operator delete(void* p, std::size_t sz) noexcept {
  std::uintptr_t a = reinterpret_cast<std::uintptr_t>(p);
  std::uintptr_t lo = reinterpret_cast<std::uintptr_t>(the_arena.buf);
  if (a >= lo && a < lo + sizeof the_arena.buf) return;  // arena memory is not freed
  ++n_delete;
  unsigned char* base = static_cast<unsigned char*>(p) - 16;
  if (*reinterpret_cast<std::size_t*>(base) == sz) ++n_sized_ok;
  outstanding -= sz;
  std::free(base);
}

template <class T>
class task {
public:
  struct promise_type : counted_promise_base {
    T value{};
    std::coroutine_handle<> continuation = std::noop_coroutine();
    task get_return_object() noexcept { return task(std::coroutine_handle<promise_type>::from_promise(*this)); }
    std::suspend_always initial_suspend() noexcept { return {}; }
    struct final_awaiter {
      bool await_ready() const noexcept { return false; }
      std::coroutine_handle<> await_suspend(std::coroutine_handle<promise_type> h) const noexcept {
        return h.promise().continuation;
      }
      void await_resume() const noexcept {}
    };
    final_awaiter final_suspend() noexcept { return {}; }
    void return_value(T v) noexcept { value = v; }
    void unhandled_exception() noexcept { std::terminate(); }
  };
  explicit task(std::coroutine_handle<promise_type> h) : h_(h) {}
  task(task&& o) noexcept : h_(std::exchange(o.h_, {})) {}
  ~task() {
    if (h_) h_.destroy();
  }
  bool await_ready() const noexcept { return false; }
  std::coroutine_handle<> await_suspend(std::coroutine_handle<> c) noexcept {
    h_.promise().continuation = c;
    return h_;
  }
  T await_resume() noexcept { return h_.promise().value; }
  T run() {
    h_.resume();
    return h_.promise().value;
  }

private:
  std::coroutine_handle<promise_type> h_;
};

[[gnu::noinline]] task<int> leaf(int x) { co_return x + 1; }

[[gnu::noinline]] task<int> tree(int depth) {
  if (depth == 0) co_return co_await leaf(depth);
  int a = co_await tree(depth - 1);
  int b = co_await tree(depth - 1);
  co_return a + b;
}

[[gnu::noinline]] task<int> in_arena(arena& a, int n) {
  int s = 0;
  for (int i = 0; i < n; ++i) s += co_await leaf(i);  // leaves use malloc
  co_return s + a.allocs;
}

int main() {
  int v = tree(4).run();
  printf("tree(4)=%d new=%d delete=%d outstanding=%zu\n", v, n_new, n_delete, outstanding);
  {
    task<int> a = leaf(1), b = leaf(2), c = leaf(3);
    printf("3 pending tasks: new=%d delete=%d\n", n_new, n_delete);
  }
  printf("after destroying unstarted: new=%d delete=%d outstanding=%zu\n", n_new, n_delete, outstanding);
  arena& ar = the_arena;
  int before = n_new;
  int r = 0;
  for (int i = 0; i < 3; ++i) r += in_arena(ar, 5).run();
  printf("arena: result=%d arena allocs=%d malloc new during arena runs=%d\n", r, ar.allocs, n_new - before);
  printf("totals: new=%d delete=%d sized_ok=%d outstanding=%zu\n", n_new, n_delete, n_sized_ok, outstanding);
  return n_new == n_delete ? 0 : 1;
}
