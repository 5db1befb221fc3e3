// A hand-made coroutine through clang's coroutine builtins that llcoro refuses: its suspend, which a
// resumed coroutine reaches again (it is in a loop), returns without llvm.coro.end on the suspend
// path.
#include <cstdlib>

extern "C" void *hand_made(int n) {
  (void)__builtin_coro_id(0, nullptr, nullptr, nullptr);
  void *hdl = __builtin_coro_begin(std::malloc(__builtin_coro_size()));
  for (int i = 0; i < n; ++i)
    if (__builtin_coro_suspend(false) != 0) return nullptr;
  __builtin_coro_end(hdl, false);
  return hdl;
}

int main() { return hand_made(2) == nullptr; }
