// Deep recursion through lazy tasks: each level awaits a freshly created
// task one level deeper (depth 20000). Control enters the children and
// returns to the parents only through symmetric transfer.
#include <coroutine>
#include <cstdio>
#include <exception>
#include <utility>

#include "support/value_task.hpp"

static int max_depth = 0;

task<long> sum_down(int n) {
  if (n > max_depth) max_depth = n;
  if (n == 0) co_return 0;
  long below = co_await sum_down(n - 1);
  co_return below + n;
}

// Mutual recursion between two coroutine functions.
task<long> odd_chain(int n);
task<long> even_chain(int n) {
  if (n == 0) co_return 1;
  co_return 2 * (co_await odd_chain(n - 1)) % 1000003;
}
task<long> odd_chain(int n) {
  if (n == 0) co_return 3;
  co_return (co_await even_chain(n - 1) + 7) % 1000003;
}

int main() {
  long s = sum_down(20000).run();
  printf("sum_down(20000)=%ld max_depth=%d\n", s, max_depth);
  long m = even_chain(15001).run();
  printf("mutual(15001)=%ld\n", m);
  return 0;
}
