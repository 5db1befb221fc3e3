// A hand-made coroutine through clang's coroutine builtins that llcoro refuses: it suspends, but
// nothing reaches llvm.coro.end.
#include <cstdlib>

extern "C" void *hand_made() {
  (void)__builtin_coro_id(0, nullptr, nullptr, nullptr);
  void *hdl = __builtin_coro_begin(std::malloc(__builtin_coro_size()));
  if (__builtin_coro_suspend(false) != 0) return nullptr;
  return hdl;
}

int main() { return hand_made() == nullptr; }
