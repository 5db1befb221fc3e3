// A generator whose frame lives on main's stack (heap elision), advanced in a loop through the
// handle's resume(): the program llcoro's header test is for. Used by crates/llcoro/tests/devirt.rs,
// which checks that after clang -O2 main tests no frame header and calls nothing indirectly (the
// test folded where the frame is made), and that it prints what clang's own build prints.
#include <coroutine>
#include <cstdio>

struct counter {
  struct promise_type {
    long current = 0;
    counter get_return_object() { return counter{std::coroutine_handle<promise_type>::from_promise(*this)}; }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    std::suspend_always yield_value(long v) noexcept {
      current = v;
      return {};
    }
    void return_void() noexcept {}
    void unhandled_exception() noexcept {}
  };
  std::coroutine_handle<promise_type> h;
  explicit counter(std::coroutine_handle<promise_type> h) : h(h) {}
  counter(const counter&) = delete;
  ~counter() { h.destroy(); }
  bool advance() {
    h.resume();
    return !h.done();
  }
  long value() const { return h.promise().current; }
};

counter odd_numbers(long limit) {
  for (long i = 1; i < limit; i += 2) co_yield i;
}

int main(int argc, char**) {
  long sum = 0;
  counter c = odd_numbers(1000 + argc);
  while (c.advance()) sum += c.value();
  std::printf("%ld\n", sum);
  return 0;
}
