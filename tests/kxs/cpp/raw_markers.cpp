// The marker contract used directly, without the header's macros: a polymorphic continuation
// (vtable pointer at offset 0, label slot at offset 24, not at 0), an int, a std::string and a
// std::vector live across a suspend in a loop, and `result` (a parameter) fresh on every entry.
// After completion both slots are null again.
// VALGRIND
#include <string>
#include <vector>
#include <cstdio>
extern "C" void __kxs_suspend_point(int) noexcept;
extern "C" void __kxs_begin(void**, void**) noexcept;
extern "C" { __attribute__((weak)) char __kxs_coroutine_suspended = 0; }
struct Base { virtual ~Base() {} long pad = 7; };
struct C : Base { int n = 0; void* _label = nullptr; void* _kxs_frame = nullptr;
  void* run(int result) {
    __kxs_begin(&_label, &_kxs_frame);
    std::string s = "a";
    std::vector<int> v;
    for (int i = 0; i < 3; i++) {
      v.push_back(i * result);
      _label = &&r1; __kxs_suspend_point(1);
      r1:;
      s += "b";
      printf("i=%d s=%s v=%zu last=%d result=%d\n", i, s.c_str(), v.size(), v.back(), result);
    }
    printf("%s %zu\n", s.c_str(), v.size());
    return nullptr;
  }
};
int main() {
  C c;
  int k = 1;
  while (c.run(k++) == &__kxs_coroutine_suspended) {
  }
  printf("frame=%p label=%p\n", c._kxs_frame, c._label);
}

// EXPECT:
// i=0 s=ab v=1 last=0 result=2
// i=1 s=abb v=2 last=2 result=3
// i=2 s=abbb v=3 last=6 result=4
// abbb 3
// frame=(nil) label=(nil)

