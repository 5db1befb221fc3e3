; FINDING: error coro-retcon-prototype 13:3
; A generator whose prototype returns { ptr, i64 } while the coroutine returns
; { ptr, i32 }: every continuation of a coro.id.retcon coroutine has the
; prototype's type and returns what the ramp returns. LLVM stops with a fatal
; error; llcoro reports it at coro.id.retcon.
; Valid IR: LLVM's verifier accepts it.

declare { ptr, i64 } @prototype(ptr, i1 zeroext)
declare ptr @allocate(i32)
declare void @deallocate(ptr)

define { ptr, i32 } @f(ptr %buffer, i32 %n) {
  %id = call token @llvm.coro.id.retcon(i32 8, i32 8, ptr %buffer, ptr @prototype, ptr @allocate, ptr @deallocate)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr null)
  %unwind = call i1 (...) @llvm.coro.suspend.retcon.i1(i32 %n)
  %unused = call i1 @llvm.coro.end(ptr %hdl, i1 false, token none)
  unreachable
}

declare token @llvm.coro.id.retcon(i32, i32, ptr, ptr, ptr, ptr)
declare ptr @llvm.coro.begin(token, ptr)
declare i1 @llvm.coro.suspend.retcon.i1(...)
declare i1 @llvm.coro.end(ptr, i1, token)
