// A tiny single-threaded scheduler: a run queue of coroutine handles resumed
// round-robin. 60 tasks yield to the scheduler a varying number of times,
// spawn child tasks, and join on them through a counter awaitable.
#include <coroutine>
#include <cstdio>
#include <exception>
#include <utility>

class scheduler {
public:
  void push(std::coroutine_handle<> h) {
    if (count_ == cap) std::terminate();
    q_[(head_ + count_) % cap] = h;
    ++count_;
  }
  void run() {
    while (count_ > 0) {
      std::coroutine_handle<> h = q_[head_];
      head_ = (head_ + 1) % cap;
      --count_;
      ++switches_;
      h.resume();
    }
  }
  long switches() const { return switches_; }
  // co_await sched.yield() puts the current coroutine at the back of the queue.
  auto yield() {
    struct awaiter {
      scheduler& s;
      bool await_ready() const noexcept { return false; }
      void await_suspend(std::coroutine_handle<> h) const { s.push(h); }
      void await_resume() const noexcept {}
    };
    return awaiter{*this};
  }

private:
  static const int cap = 512;
  std::coroutine_handle<> q_[cap];
  int head_ = 0, count_ = 0;
  long switches_ = 0;
};

static scheduler sched;
static int alive = 0;

// Detached task: starts queued, destroys itself at the end.
struct spawned {
  struct promise_type {
    promise_type() { ++alive; }
    ~promise_type() { --alive; }
    spawned get_return_object() noexcept {
      sched.push(std::coroutine_handle<promise_type>::from_promise(*this));
      return {};
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_never final_suspend() noexcept { return {}; }
    void return_void() noexcept {}
    void unhandled_exception() noexcept { std::terminate(); }
  };
};

// Join counter: waiters resume once the count reaches zero.
struct latch {
  int count;
  std::coroutine_handle<> waiter;
  void arrive() {
    if (--count == 0 && waiter) sched.push(std::exchange(waiter, {}));
  }
  bool await_ready() const noexcept { return count == 0; }
  void await_suspend(std::coroutine_handle<> h) noexcept { waiter = h; }
  void await_resume() const noexcept {}
};

static char trace[4096];
static int trace_len = 0;
static void note(char c) {
  if (trace_len < (int)sizeof trace - 1) trace[trace_len++] = c;
}

static long total = 0;

spawned child(int id, int work, latch* done) {
  for (int i = 0; i < work; ++i) {
    total += id * i;
    co_await sched.yield();
  }
  done->arrive();
}

spawned worker(int id) {
  int rounds = 1 + id % 5;
  for (int r = 0; r < rounds; ++r) {
    if (id < 26) note((char)('A' + id));
    total += id + r;
    co_await sched.yield();
  }
  if (id % 10 == 0) {
    latch l{3, {}};
    for (int k = 0; k < 3; ++k) child(id * 10 + k, k + 2, &l);
    co_await l;
    note('*');
  }
}

int main() {
  for (int i = 0; i < 60; ++i) worker(i);
  printf("queued, alive=%d\n", alive);
  sched.run();
  trace[trace_len] = 0;
  printf("trace: %s\n", trace);
  printf("total=%ld switches=%ld alive=%d\n", total, sched.switches(), alive);
  return alive;
}
