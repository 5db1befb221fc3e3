#include <cstdio>
// lib_generator's computation with no coroutine: what the best lowering of the generator can reach.
int main(int argc, char**) {
  long total = 0;
  for (int run = 0; run < 100; run++) {
    long seed = argc + run;
    for (long i = 0; i < 1000000; i++) total += (i * seed) ^ (i >> 3);
  }
  std::printf("%ld\n", total);
  return 0;
}
