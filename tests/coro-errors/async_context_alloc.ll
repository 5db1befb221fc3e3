; FINDING: warning coro-async-context-alloc 29:3
; MESSAGE: 2 calls of llvm.coro.async.context.alloc/dealloc are kept
; FINDING: warning coro-async-context-alloc 38:3
; MESSAGE: 2 calls of llvm.coro.async.context.alloc/dealloc are kept
; KEEPS: llvm.coro.async.context.alloc llvm.coro.async.context.dealloc
; An async coroutine that allocates its callee's context with
; llvm.coro.async.context.alloc before a suspend and frees it with .dealloc after
; it, and a plain function that does the same. LLVM's coro passes lower the
; coroutine around them and leave the calls (the context pointer spilled across
; the suspend) for the runtime's own lowering (Swift's); llcoro does the same,
; with a warning that the output keeps them.
; Valid IR: LLVM's verifier accepts it.
@f_fp = constant <{ i32, i32 }> <{ i32 0, i32 32 }>
@g_fp = external global <{ i32, i32 }>

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
  %c = call ptr @llvm.coro.async.context.alloc(ptr null, ptr @g_fp)
  %r = call ptr @llvm.coro.async.resume()
  %s = call { ptr } (i32, ptr, ptr, ...) @llvm.coro.suspend.async(i32 0, ptr %r, ptr @proj, ptr @go, ptr %r, ptr %c)
  call void @llvm.coro.async.context.dealloc(ptr %c)
  call i1 (ptr, i1, ...) @llvm.coro.end.async(ptr %hdl, i1 false)
  unreachable
}

define void @not_a_coroutine() {
  %c = call ptr @llvm.coro.async.context.alloc(ptr null, ptr @g_fp)
  call void @llvm.coro.async.context.dealloc(ptr %c)
  ret void
}

declare token @llvm.coro.id.async(i32, i32, i32, ptr)
declare ptr @llvm.coro.begin(token, ptr)
declare ptr @llvm.coro.async.resume()
declare { ptr } @llvm.coro.suspend.async(i32, ptr, ptr, ...)
declare i1 @llvm.coro.end.async(ptr, i1, ...)
declare ptr @llvm.coro.async.context.alloc(ptr, ptr)
declare void @llvm.coro.async.context.dealloc(ptr)
