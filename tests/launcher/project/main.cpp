#include <cstdio>

#include "counter.hpp"

int main() {
  std::printf("%s\n", GREETING);
  long sum = 0;
  auto c = count_to(20);
  while (c.next()) sum += c.value();
  std::printf("step=%d sum=%ld\n", kStep, sum);
  return 0;
}
