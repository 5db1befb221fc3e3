; FINDING: error coro-async-suspend 21:3
; A coro.suspend.async whose resume function operand is null instead of a
; coro.async.resume call: CoroSplit would cast it to that call and crash.
; Valid IR: LLVM's verifier accepts it.
@f_fp = constant <{ i32, i32 }> <{ i32 0, i32 32 }>

define void @go(ptr %fn, ptr %ctx) {
  call void %fn(ptr %ctx)
  ret void
}

define ptr @proj(ptr %ctx) {
  ret ptr %ctx
}

define void @f(ptr %ctx) presplitcoroutine {
entry:
  %id = call token @llvm.coro.id.async(i32 32, i32 16, i32 0, ptr @f_fp)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr null)
  %r = call ptr @llvm.coro.async.resume()
  %s = call { ptr } (i32, ptr, ptr, ...) @llvm.coro.suspend.async(i32 0, ptr null, ptr @proj, ptr @go, ptr %r, ptr %ctx)
  call i1 (ptr, i1, ...) @llvm.coro.end.async(ptr %hdl, i1 false)
  unreachable
}

declare token @llvm.coro.id.async(i32, i32, i32, ptr)
declare ptr @llvm.coro.begin(token, ptr)
declare ptr @llvm.coro.async.resume()
declare { ptr } @llvm.coro.suspend.async(i32, ptr, ptr, ...)
declare i1 @llvm.coro.end.async(ptr, i1, ...)
