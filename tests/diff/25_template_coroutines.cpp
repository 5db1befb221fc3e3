// Template coroutines: function templates instantiated with several types,
// variadic templates, non-type template parameters with if constexpr around
// suspension points, class templates with member coroutines.
#include <coroutine>
#include <cstdio>
#include <exception>
#include <string>
#include <utility>

#include "support/task.hpp"
#include "support/generator.hpp"
template <class T>
task<T> accumulate(const T* data, int n, T init) {
  T acc = init;
  for (int i = 0; i < n; ++i) {
    co_await std::suspend_never{};
    acc = acc + data[i];
  }
  co_return acc;
}

template <class T, class U>
generator<T> convert_each(const U* data, int n) {
  for (int i = 0; i < n; ++i) co_yield static_cast<T>(data[i]);
}

template <class... Ts>
task<double> sum_all(Ts... xs) {
  double s = 0;
  ((s += co_await [](double v) -> task<double> { co_return v; }(static_cast<double>(xs))), ...);
  co_return s;
}

template <int N>
task<int> unrolled(int x) {
  if constexpr (N == 0) {
    co_return x;
  } else {
    int below = co_await unrolled<N - 1>(x + N);
    if constexpr (N % 2 == 0) {
      co_return below * 2;
    } else {
      co_return below + 1;
    }
  }
}

template <class T, int Cap>
class Ring {
public:
  task<bool> push(T v) {
    co_await std::suspend_never{};
    if (size_ == Cap) co_return false;
    data_[(head_ + size_) % Cap] = std::move(v);
    ++size_;
    co_return true;
  }
  generator<T> drain() {
    while (size_ > 0) {
      T v = std::move(data_[head_]);
      head_ = (head_ + 1) % Cap;
      --size_;
      co_yield v;
    }
  }

private:
  T data_[Cap]{};
  int head_ = 0, size_ = 0;
};

int main() {
  const int ints[] = {1, 2, 3, 4, 5, 6};
  const double dbls[] = {0.5, 0.25, 0.125};
  const std::string strs[] = {"a", "bb", "ccc"};
  printf("int=%d\n", accumulate(ints, 6, 100).run());
  printf("double=%.4f\n", accumulate(dbls, 3, 1.0).run());
  printf("string=%s\n", accumulate(strs, 3, std::string(">")).run().c_str());
  {
    auto g = convert_each<char>(ints, 6);
    printf("chars:");
    while (g.next()) printf(" %d", (int)g.value() + 'a');
    printf("\n");
    auto h = convert_each<int>(dbls, 3);
    printf("truncated:");
    while (h.next()) printf(" %d", h.value());
    printf("\n");
  }
  printf("sum_all=%.3f\n", sum_all(1, 2.5, 'A', 3L, 0.125f).run());
  printf("unrolled<6>(1)=%d unrolled<3>(5)=%d\n", unrolled<6>(1).run(), unrolled<3>(5).run());
  Ring<std::string, 4> ring;
  int accepted = 0;
  for (int i = 0; i < 6; ++i) accepted += ring.push("item" + std::to_string(i)).run() ? 1 : 0;
  printf("accepted=%d:", accepted);
  {
    auto g = ring.drain();
    while (g.next()) printf(" %s", g.value().c_str());
  }
  printf("\n");
  Ring<int, 3> ri;
  (void)ri.push(9).run();
  printf("ri first: ");
  {
    auto g = ri.drain();
    if (g.next()) printf("%d", g.value());
  }
  printf("\n");
  return 0;
}
