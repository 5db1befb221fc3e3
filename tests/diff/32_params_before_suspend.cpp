// Parameters used only before the first suspension point: by value, by
// const reference to a temporary (only valid during the initial part of an
// eager coroutine), pointers and C strings; their values are copied into
// locals that are used after suspending.
#include <coroutine>
#include <cstdio>
#include <exception>
#include <string>
#include <utility>

struct eager {
  struct promise_type {
    long result = 0;
    eager get_return_object() noexcept { return eager{std::coroutine_handle<promise_type>::from_promise(*this)}; }
    std::suspend_never initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    void return_value(long v) noexcept { result = v; }
    void unhandled_exception() noexcept { std::terminate(); }
  };
  std::coroutine_handle<promise_type> h;
  eager(std::coroutine_handle<promise_type> x) : h(x) {}
  eager(eager&& o) noexcept : h(std::exchange(o.h, {})) {}
  ~eager() {
    if (h) h.destroy();
  }
  long finish() {
    while (!h.done()) h.resume();
    return h.promise().result;
  }
};

// `s` refers to a temporary std::string that dies when the call returns,
// so it may only be touched before the first suspension.
eager summarize(const std::string& s, int scale, const char* tag, const int* arr, int n) {
  unsigned long hash = 0;
  for (char c : s) hash = hash * 31u + (unsigned char)c;
  long arr_sum = 0;
  for (int i = 0; i < n; ++i) arr_sum += arr[i];
  char first_tag_char = tag[0];
  int sc = scale;
  co_await std::suspend_always{};
  // only locals from here on
  long r = (long)(hash % 100000u) * sc + arr_sum;
  co_await std::suspend_always{};
  printf("  tag %c: hash%%100000=%lu arr_sum=%ld -> %ld\n", first_tag_char, hash % 100000u, arr_sum, r);
  co_return r;
}

// Parameters that are only consulted to decide the control flow up front.
eager branchy(int mode, double factor) {
  long base = mode == 0 ? 7 : mode == 1 ? 70 : 700;
  long mult = (long)(factor * 4);
  co_await std::suspend_always{};
  co_return base * mult;
}

int main() {
  long total = 0;
  for (int k = 1; k <= 3; ++k) {
    int arr[5] = {k, k * 2, k * 3, k * 4, k * 5};
    char tag[8] = {(char)('a' + k), 0};
    eager e = summarize(std::string(30 + k, (char)('A' + k)) + "suffix", k, tag, arr, 5);
    // the temporary string, tag and arr are gone/overwritten now
    arr[0] = -999;
    tag[0] = '?';
    total += e.finish();
  }
  for (int m = 0; m < 3; ++m) {
    eager e = branchy(m, 1.75 + m);
    total += e.finish();
  }
  printf("total=%ld\n", total);
  return 0;
}
