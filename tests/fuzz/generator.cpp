#include <coroutine>
#include <cstdio>
struct gen { struct promise_type { int v; gen get_return_object(){return {std::coroutine_handle<promise_type>::from_promise(*this)};} std::suspend_always initial_suspend(){return {};} std::suspend_always final_suspend() noexcept {return {};} std::suspend_always yield_value(int x){v=x;return {};} void return_void(){} void unhandled_exception(){} }; std::coroutine_handle<promise_type> h; };
gen f(int n){ for(int i=0;i<n;i++) co_yield i*n; }
int main(){ auto g=f(3); int s=0; while(true){g.h.resume(); if (g.h.done()) break; s+=g.h.promise().v; printf("%d\n", g.h.promise().v);} g.h.destroy(); return s; }
