// Exceptions thrown after one or more resumptions, with locals alive across
// the suspends whose destructors run during unwinding; propagated through
// unhandled_exception to the awaiter and caught outside the coroutines.
#include <coroutine>
#include <cstdio>
#include <exception>
#include <stdexcept>
#include <string>
#include <utility>

static int live = 0;
struct R {
  int id;
  explicit R(int i) : id(i) {
    ++live;
    printf("    R%d\n", id);
  }
  ~R() {
    --live;
    printf("    ~R%d\n", id);
  }
};

struct my_error : std::runtime_error {
  int code;
  my_error(const std::string& s, int c) : std::runtime_error(s), code(c) {}
};

class job {
public:
  struct promise_type {
    std::exception_ptr error;
    job get_return_object() noexcept { return job(std::coroutine_handle<promise_type>::from_promise(*this)); }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    void return_void() noexcept {}
    void unhandled_exception() noexcept {
      printf("    unhandled_exception stores it\n");
      error = std::current_exception();
    }
  };
  explicit job(std::coroutine_handle<promise_type> h) : h_(h) {}
  job(job&& o) noexcept : h_(std::exchange(o.h_, {})) {}
  ~job() {
    if (h_) h_.destroy();
  }
  // Resumes once; rethrows a stored exception. Returns false when finished.
  bool step() {
    h_.resume();
    if (h_.promise().error) std::rethrow_exception(std::exchange(h_.promise().error, nullptr));
    return !h_.done();
  }

private:
  std::coroutine_handle<promise_type> h_;
};

job worker(int fail_at) {
  R outer(0);
  for (int i = 1; i <= 4; ++i) {
    R inner(i);
    co_await std::suspend_always{};
    if (i == fail_at) {
      printf("    throwing at step %d\n", i);
      throw my_error("step failed", i);
    }
  }
  printf("    worker completed\n");
}

int drive(int fail_at) {
  printf("drive(fail_at=%d)\n", fail_at);
  job j = worker(fail_at);
  int steps = 0;
  try {
    while (j.step()) ++steps;
    printf("  finished after %d steps\n", steps);
    return 0;
  } catch (const my_error& e) {
    printf("  caught my_error '%s' code=%d after %d steps, live=%d\n", e.what(), e.code, steps, live);
    return e.code;
  }
}

int main() {
  int total = 0;
  for (int f = 1; f <= 5; ++f) total += drive(f);
  printf("total codes=%d live=%d\n", total, live);
  return total == 10 && live == 0 ? 0 : 1;
}
