; FINDING: error coro-async-align 21:3
; An alloca aligned to 64 lives across an async suspend, but the async context
; (and so the frame in it) is only aligned to 16: LLVM realigns such an alloca
; at run time inside a larger field, which llcoro does not.
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
  %a = alloca i64, align 64
  store i64 1, ptr %a
  %r = call ptr @llvm.coro.async.resume()
  %s = call { ptr } (i32, ptr, ptr, ...) @llvm.coro.suspend.async(i32 0, ptr %r, ptr @proj, ptr @go, ptr %r, ptr %ctx)
  %v = load i64, ptr %a
  call i1 (ptr, i1, ...) @llvm.coro.end.async(ptr %hdl, i1 false)
  unreachable
}

declare token @llvm.coro.id.async(i32, i32, i32, ptr)
declare ptr @llvm.coro.begin(token, ptr)
declare ptr @llvm.coro.async.resume()
declare { ptr } @llvm.coro.suspend.async(i32, ptr, ptr, ...)
declare i1 @llvm.coro.end.async(ptr, i1, ...)
