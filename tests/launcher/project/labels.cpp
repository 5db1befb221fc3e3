// Labels as values (what kxs suspend functions are built from), compiled through llcoro with
// kotlinx::coroutines' flags; there is no coroutine to lower, so the IR passes through.
#include <cstdio>

int main() {
  static void* const steps[] = {&&add, &&times, &&done};
  int next = 0, acc = 0;
  goto* steps[next];
add:
  acc += 4;
  next = 1;
  goto* steps[next];
times:
  acc *= 10;
  next = 2;
  goto* steps[next];
done:
  std::printf("labels acc=%d\n", acc);
  return 0;
}
