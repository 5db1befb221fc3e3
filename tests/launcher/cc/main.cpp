// Links against a separately compiled coroutine (pass-through of the link step).
#include <cstdio>

int sum_of_squares(int n);

int main() {
  std::printf("sum=%d\n", sum_of_squares(10));
  return 0;
}
