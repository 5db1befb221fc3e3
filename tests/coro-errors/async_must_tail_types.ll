; FINDING: error coro-async-suspend 19:3
; An async (Swift-style) coroutine, shaped like LLVM's own coro-async tests,
; whose suspend's must-tail function @dispatch takes an i64 where the suspend
; passes a pointer: CoroSplit calls it with those operands in the suspend's place.
; Valid IR: LLVM's verifier accepts it.
; Opaque-pointer (LLVM 19) dialect.

@f_fp = constant <{ i32, i32 }> <{ i32 0, i32 32 }>

declare void @use(ptr)
declare ptr @project(ptr)
declare swiftcc void @dispatch(ptr, i64)

define swiftcc void @f(ptr swiftasync %ctx) presplitcoroutine {
entry:
  %id = call token @llvm.coro.id.async(i32 32, i32 16, i32 0, ptr @f_fp)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr null)
  %resume = call ptr @llvm.coro.async.resume()
  %res = call { ptr } (i32, ptr, ptr, ...) @llvm.coro.suspend.async.sl_p0s(i32 0, ptr %resume, ptr @project, ptr @dispatch, ptr %resume, ptr %ctx)
  %ctx.back = extractvalue { ptr } %res, 0
  call void @use(ptr %ctx.back)
  %unused = call i1 (ptr, i1, ...) @llvm.coro.end.async(ptr %hdl, i1 false)
  unreachable
}

declare token @llvm.coro.id.async(i32, i32, i32, ptr)
declare ptr @llvm.coro.begin(token, ptr)
declare ptr @llvm.coro.async.resume()
declare { ptr } @llvm.coro.suspend.async.sl_p0s(i32, ptr, ptr, ...)
declare i1 @llvm.coro.end.async(ptr, i1, ...)
