// Deliberate non-zero exit status computed by coroutines: a validation
// pipeline of tasks counts failures; main returns 40 + the failure count.
#include <coroutine>
#include <cstdio>
#include <exception>
#include <stdexcept>
#include <string>
#include <utility>

#include "support/task.hpp"
task<int> parse_digit(char c) {
  if (c < '0' || c > '9') throw std::invalid_argument(std::string("not a digit: ") + c);
  co_return c - '0';
}

task<int> parse_number(const char* s) {
  int v = 0;
  for (const char* p = s; *p; ++p) v = v * 10 + co_await parse_digit(*p);
  co_return v;
}

task<int> validate_all(const char* const* inputs, int n) {
  int failures = 0;
  long sum = 0;
  for (int i = 0; i < n; ++i) {
    try {
      int v = co_await parse_number(inputs[i]);
      sum += v;
      printf("ok   '%s' -> %d\n", inputs[i], v);
    } catch (const std::invalid_argument& e) {
      ++failures;
      printf("fail '%s': %s\n", inputs[i], e.what());
    }
  }
  printf("sum=%ld failures=%d\n", sum, failures);
  co_return failures;
}

int main() {
  const char* const inputs[] = {"123", "4x5", "007", "", "99999", "-1", "42"};
  int failures = validate_all(inputs, 7).run();
  return 40 + failures;
}
