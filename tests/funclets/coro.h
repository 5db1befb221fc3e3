// A freestanding <coroutine> for targets without a C++ library here (clang's builtins only).
#pragma once
namespace std {
template <class R, class... Args> struct coroutine_traits { using promise_type = typename R::promise_type; };
template <class P = void> struct coroutine_handle;
template <> struct coroutine_handle<void> {
  void *ptr = nullptr;
  constexpr coroutine_handle() = default;
  static coroutine_handle from_address(void *a) { coroutine_handle h; h.ptr = a; return h; }
  void *address() const { return ptr; }
  void resume() const { __builtin_coro_resume(ptr); }
  void destroy() const { __builtin_coro_destroy(ptr); }
  bool done() const { return __builtin_coro_done(ptr); }
  explicit operator bool() const { return ptr != nullptr; }
};
template <class P> struct coroutine_handle {
  void *ptr = nullptr;
  constexpr coroutine_handle() = default;
  static coroutine_handle from_address(void *a) { coroutine_handle h; h.ptr = a; return h; }
  static coroutine_handle from_promise(P &p) {
    coroutine_handle h; h.ptr = __builtin_coro_promise(&p, alignof(P), true); return h; }
  P &promise() const { return *static_cast<P *>(__builtin_coro_promise(ptr, alignof(P), false)); }
  void *address() const { return ptr; }
  operator coroutine_handle<>() const { return coroutine_handle<>::from_address(ptr); }
  void resume() const { __builtin_coro_resume(ptr); }
  void destroy() const { __builtin_coro_destroy(ptr); }
  bool done() const { return __builtin_coro_done(ptr); }
};
struct suspend_always {
  bool await_ready() const noexcept { return false; }
  void await_suspend(coroutine_handle<>) const noexcept {}
  void await_resume() const noexcept {}
};
struct suspend_never {
  bool await_ready() const noexcept { return true; }
  void await_suspend(coroutine_handle<>) const noexcept {}
  void await_resume() const noexcept {}
};
}
