#include "counter.hpp"

counter count_to(int limit) {
  for (int i = 0; i < limit; i += kStep) co_yield i;
}
