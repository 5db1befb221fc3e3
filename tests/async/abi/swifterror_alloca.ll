; An async coroutine with a swifterror alloca passed to calls before and after a suspend. A
; swifterror slot may only be loaded, stored and passed as a swifterror argument, so it cannot
; live in the context: each part gets a swifterror alloca of its own, the value kept in an
; ordinary variable between calls, as LLVM's CoroFrame does.
@f_fp = constant <{ i32, i32 }> <{ i32 0, i32 32 }>

declare void @may_fail(ptr swifterror)
declare void @use(ptr)

define void @go(ptr %fn, ptr %ctx) {
  call void %fn(ptr %ctx)
  ret void
}

define ptr @proj(ptr %ctx) {
  ret ptr %ctx
}

define void @f(ptr %ctx) presplitcoroutine {
entry:
  %err = alloca swifterror ptr, align 8
  %id = call token @llvm.coro.id.async(i32 32, i32 16, i32 0, ptr @f_fp)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr null)
  store ptr null, ptr %err, align 8
  call void @may_fail(ptr swifterror %err)
  %r = call ptr @llvm.coro.async.resume()
  %s = call { ptr } (i32, ptr, ptr, ...) @llvm.coro.suspend.async(i32 0, ptr %r, ptr @proj, ptr @go, ptr %r, ptr %ctx)
  call void @may_fail(ptr swifterror %err)
  %e = load ptr, ptr %err, align 8
  call void @use(ptr %e)
  call i1 (ptr, i1, ...) @llvm.coro.end.async(ptr %hdl, i1 false)
  unreachable
}

declare token @llvm.coro.id.async(i32, i32, i32, ptr)
declare ptr @llvm.coro.begin(token, ptr)
declare ptr @llvm.coro.async.resume()
declare { ptr } @llvm.coro.suspend.async(i32, ptr, ptr, ...)
declare i1 @llvm.coro.end.async(ptr, i1, ...)
