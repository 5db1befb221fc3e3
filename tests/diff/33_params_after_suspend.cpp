// Parameters used after suspension points: by value (ints, structs,
// std::string, std::unique_ptr moved in), by lvalue reference to objects
// that outlive the coroutine (mutated across suspends), by pointer, and
// std::string/unique_ptr moved into by-value parameters.
#include <coroutine>
#include <cstdio>
#include <exception>
#include <memory>
#include <string>
#include <utility>

#include "support/task.hpp"
struct co {
  struct promise_type {
    co get_return_object() noexcept { return co{std::coroutine_handle<promise_type>::from_promise(*this)}; }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    void return_void() noexcept {}
    void unhandled_exception() noexcept { std::terminate(); }
  };
  std::coroutine_handle<promise_type> h;
  co(std::coroutine_handle<promise_type> x) : h(x) {}
  co(co&& o) noexcept : h(std::exchange(o.h, {})) {}
  ~co() {
    if (h) h.destroy();
  }
  void finish() {
    while (!h.done()) h.resume();
  }
};

struct Config {
  int width, height;
  double ratio;
  char name[16];
};

co by_value(int a, long b, Config cfg, std::string s, std::unique_ptr<int> up, std::shared_ptr<std::string> sp) {
  co_await std::suspend_always{};
  printf("  by_value: a=%d b=%ld cfg=%dx%d %.2f %s\n", a, b, cfg.width, cfg.height, cfg.ratio, cfg.name);
  a += 5;
  s += "!";
  co_await std::suspend_always{};
  printf("  by_value: a=%d s=%s (len %zu) *up=%d sp=%s use_count=%ld\n", a, s.c_str(), s.size(), *up, sp->c_str(),
         sp.use_count());
  *up += a;
  co_await std::suspend_always{};
  printf("  by_value: *up=%d\n", *up);
}

co by_ref(int& counter, std::string& log, const Config& cfg, int* out) {
  for (int i = 0; i < 4; ++i) {
    co_await std::suspend_always{};
    ++counter;
    log += (char)('0' + i);
    *out += cfg.width * i;
  }
}

task<std::string> consume(std::string s, std::unique_ptr<std::string> tail) {
  co_await std::suspend_never{};
  std::string r = std::move(s);
  co_await std::suspend_never{};
  r += *tail;
  co_return r;
}

int main() {
  Config cfg{640, 480, 1.3333, "display"};
  std::string big(60, 'm');
  auto up = std::make_unique<int>(10);
  auto sp = std::make_shared<std::string>("shared");
  {
    co c = by_value(1, 2L, cfg, std::move(big), std::move(up), sp);
    cfg.width = 0;  // the coroutine has its own copy
    *sp += "-changed";
    printf("moved-from: big.size()=%zu up=%s sp.use_count=%ld\n", big.size(), up ? "set" : "null", sp.use_count());
    c.finish();
  }
  printf("after destroy: sp.use_count=%ld\n", sp.use_count());

  int counter = 0;
  std::string log = "log:";
  int out = 0;
  cfg.width = 3;
  co r = by_ref(counter, log, cfg, &out);
  r.h.resume();
  r.h.resume();
  cfg.width = 100;  // visible to the coroutine through the reference
  r.finish();
  printf("by_ref: counter=%d log=%s out=%d\n", counter, log.c_str(), out);

  std::string s1 = "a string long enough to be heap allocated, ";
  std::string res = consume(std::move(s1), std::make_unique<std::string>("tail")).run();
  printf("consume: %s\n", res.c_str());
  return 0;
}
