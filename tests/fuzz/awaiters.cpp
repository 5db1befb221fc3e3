#include <coroutine>
struct T { struct promise_type { T get_return_object(){return {};} std::suspend_never initial_suspend(){return {};} std::suspend_never final_suspend() noexcept {return {};} void return_void(){} void unhandled_exception(){} }; };
struct B { bool await_ready(){return false;} bool await_suspend(std::coroutine_handle<>){return false;} void await_resume(){} };
struct H { bool await_ready(){return false;} std::coroutine_handle<> await_suspend(std::coroutine_handle<> h){return h;} void await_resume(){} };
T f(){ co_await B{}; co_await H{}; }
