// A loop of 1,000,000 co_await on lazy tasks that complete synchronously.
// Each await transfers into the child (await_suspend returns the child's
// handle) and the child's final_suspend transfers back to the parent, so
// without tail-call transfer the stack would grow by 2 frames per iteration.
#include <coroutine>
#include <cstdio>
#include <exception>
#include <utility>

#include "support/value_task.hpp"

task<unsigned> step(unsigned i) { co_return (i * 2654435761u) >> 28; }

task<unsigned long long> million() {
  unsigned long long sum = 0;
  for (unsigned i = 0; i < 1000000u; ++i) sum += co_await step(i);
  co_return sum;
}

int main() {
  unsigned long long s = million().run();
  printf("sum=%llu\n", s);
  return 0;
}
