// Symmetric transfer: await_suspend returns std::coroutine_handle<>.
// Two coroutines hand control back and forth 1,000,000 times; this only
// works with constant stack usage if the transfer is a tail call.
#include <coroutine>
#include <cstdio>
#include <exception>
#include <utility>

struct player {
  struct promise_type {
    std::coroutine_handle<promise_type> partner;
    long hits = 0;
    player get_return_object() noexcept {
      return player(std::coroutine_handle<promise_type>::from_promise(*this));
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    void return_void() noexcept {}
    void unhandled_exception() noexcept { std::terminate(); }
  };
  explicit player(std::coroutine_handle<promise_type> h) : h(h) {}
  player(player&& o) noexcept : h(std::exchange(o.h, {})) {}
  ~player() {
    if (h) h.destroy();
  }
  std::coroutine_handle<promise_type> h;
};

// Transfers control to the partner coroutine.
struct pass_to {
  std::coroutine_handle<> target;
  bool await_ready() const noexcept { return false; }
  std::coroutine_handle<> await_suspend(std::coroutine_handle<>) const noexcept { return target; }
  void await_resume() const noexcept {}
};

// Gets the promise of the current coroutine without suspending.
struct self_promise {
  player::promise_type* p = nullptr;
  bool await_ready() const noexcept { return false; }
  bool await_suspend(std::coroutine_handle<player::promise_type> h) noexcept {
    p = &h.promise();
    return false;  // resume immediately
  }
  player::promise_type& await_resume() const noexcept { return *p; }
};

player play(const char* name, long rounds, long* checksum) {
  player::promise_type& me = co_await self_promise{};
  for (long i = 0; i < rounds; ++i) {
    ++me.hits;
    *checksum = *checksum * 31 + (name[0] == 'p' ? 1 : 2);
    *checksum %= 1000000007L;
    co_await pass_to{me.partner};
  }
  printf("%s finished after %ld hits\n", name, me.hits);
}

int main() {
  long checksum = 0;
  const long rounds = 500000;  // 2 players => 1,000,000 transfers
  player ping = play("ping", rounds, &checksum);
  player pong = play("pong", rounds + 1, &checksum);
  ping.h.promise().partner = pong.h;
  pong.h.promise().partner = ping.h;
  ping.h.resume();
  printf("back in main: ping done=%d pong done=%d\n", (int)ping.h.done(), (int)pong.h.done());
  printf("ping hits=%ld pong hits=%ld checksum=%ld\n", ping.h.promise().hits, pong.h.promise().hits, checksum);
  return 0;
}
