// Promise access: coroutine_handle<P>::from_promise, handle.promise(),
// address()/from_address() round trips (typed and type-erased), handle
// comparison and hashing, a coroutine obtaining its own handle/promise from
// an awaiter, and data exchanged through the promise in both directions.
#include <coroutine>
#include <cstdio>
#include <exception>
#include <utility>

struct mailbox_co {
  struct promise_type {
    int inbox = 0;    // written by main, read by the coroutine
    int outbox = 0;   // written by the coroutine, read by main
    int serial = 42;
    mailbox_co get_return_object() noexcept { return mailbox_co{this}; }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    void return_void() noexcept {}
    void unhandled_exception() noexcept { std::terminate(); }
  };
  promise_type* p;  // note: stores the promise pointer, not the handle
  std::coroutine_handle<promise_type> handle() const {
    return std::coroutine_handle<promise_type>::from_promise(*p);
  }
};

using handle_t = std::coroutine_handle<mailbox_co::promise_type>;

// Returns the awaiting coroutine's own typed handle without suspending.
struct get_self {
  handle_t h;
  bool await_ready() const noexcept { return false; }
  bool await_suspend(handle_t self) noexcept {
    h = self;
    return false;
  }
  handle_t await_resume() const noexcept { return h; }
};

// Suspends and, on resumption, returns the value main put in the inbox.
struct receive {
  mailbox_co::promise_type* p = nullptr;
  bool await_ready() const noexcept { return false; }
  void await_suspend(handle_t h) noexcept { p = &h.promise(); }
  int await_resume() const noexcept { return p->inbox; }
};

mailbox_co echo_doubler(int rounds) {
  handle_t self = co_await get_self{};
  mailbox_co::promise_type& pr = self.promise();
  printf("  inside: serial=%d\n", pr.serial);
  void* addr = self.address();
  handle_t again = handle_t::from_address(addr);
  printf("  inside: from_address round trip equal=%d same promise=%d\n", (int)(again == self),
         (int)(&again.promise() == &pr));
  for (int i = 0; i < rounds; ++i) {
    int v = co_await receive{};
    pr.outbox = v * 2 + i;
  }
}

int main() {
  mailbox_co m = echo_doubler(4);
  handle_t h = m.handle();
  printf("from_promise handle valid=%d done=%d\n", (int)(bool)h, (int)h.done());
  printf("promise round trip: %d\n", (int)(&h.promise() == m.p));
  h.promise().serial = 7;

  std::coroutine_handle<> erased = h;
  printf("erased == typed: %d, same address: %d\n", (int)(erased == h), (int)(erased.address() == h.address()));
  std::coroutine_handle<> from_addr = std::coroutine_handle<>::from_address(h.address());
  printf("void from_address equal: %d\n", (int)(from_addr == erased));
  handle_t typed_back = handle_t::from_address(erased.address());
  printf("typed from erased address: %d promise same: %d\n", (int)(typed_back == h),
         (int)(&typed_back.promise() == m.p));
  std::hash<std::coroutine_handle<>> hasher;
  printf("hash equal: %d\n", (int)(hasher(erased) == hasher(from_addr)));

  std::coroutine_handle<> null_h;
  printf("null handle: bool=%d ==nullptr=%d address null=%d\n", (int)(bool)null_h, (int)(null_h == nullptr),
         (int)(null_h.address() == nullptr));
  printf("null vs live: %d\n", (int)(null_h != erased));

  from_addr.resume();  // runs to the first receive (via a type-erased handle)
  for (int i = 1; i <= 4; ++i) {
    h.promise().inbox = i * 10;
    typed_back.resume();
    printf("round %d: outbox=%d done=%d\n", i, h.promise().outbox, (int)h.done());
  }
  printf("final done=%d\n", (int)erased.done());
  std::coroutine_handle<>::from_address(m.p == &h.promise() ? h.address() : nullptr).destroy();
  return 0;
}
