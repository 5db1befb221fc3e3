; FINDING: error coro-retcon-suspend 15:3
; A generator whose coro.suspend.retcon yields an i64 where the coroutine
; returns { ptr, i32 } (a continuation and an i32). LLVM's coro::Shape stops
; with a fatal error ("argument to coro.suspend.retcon does not match
; corresponding prototype function result"); llcoro says where.
; Valid IR: LLVM's verifier accepts it.

declare { ptr, i32 } @prototype(ptr, i1 zeroext)
declare ptr @allocate(i32)
declare void @deallocate(ptr)

define { ptr, i32 } @f(ptr %buffer, i64 %n) {
  %id = call token @llvm.coro.id.retcon(i32 8, i32 8, ptr %buffer, ptr @prototype, ptr @allocate, ptr @deallocate)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr null)
  %unwind = call i1 (...) @llvm.coro.suspend.retcon.i1(i64 %n)
  %unused = call i1 @llvm.coro.end(ptr %hdl, i1 false, token none)
  unreachable
}

declare token @llvm.coro.id.retcon(i32, i32, ptr, ptr, ptr, ptr)
declare ptr @llvm.coro.begin(token, ptr)
declare i1 @llvm.coro.suspend.retcon.i1(...)
declare i1 @llvm.coro.end(ptr, i1, token)
