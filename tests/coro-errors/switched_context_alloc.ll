; FINDING: warning coro-async-context-alloc 16:3
; MESSAGE: 2 calls of llvm.coro.async.context.alloc/dealloc are kept
; KEEPS: llvm.coro.async.context.alloc llvm.coro.async.context.dealloc
; A switched-resume coroutine (coro.id) that allocates a context with
; llvm.coro.async.context.alloc before its suspend and frees it with .dealloc
; after it. LLVM's coro passes (19 and 22) lower the coroutine around these two
; calls and leave them, the pointer kept in the frame across the suspend;
; llcoro does the same, with the warning it gives in an async coroutine.
; Valid IR: LLVM's verifier accepts it.
define ptr @f(ptr %task, ptr %fnptr) presplitcoroutine {
entry:
  %id = call token @llvm.coro.id(i32 0, ptr null, ptr null, ptr null)
  %size = call i64 @llvm.coro.size.i64()
  %mem = call ptr @malloc(i64 %size)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr %mem)
  %ctx = call ptr @llvm.coro.async.context.alloc(ptr %task, ptr %fnptr)
  %s = call i8 @llvm.coro.suspend(token none, i1 false)
  switch i8 %s, label %suspend [i8 0, label %resume
                                i8 1, label %cleanup]
resume:
  call void @llvm.coro.async.context.dealloc(ptr %ctx)
  br label %cleanup
cleanup:
  %m = call ptr @llvm.coro.free(token %id, ptr %hdl)
  call void @free(ptr %m)
  br label %suspend
suspend:
  %e = call i1 @llvm.coro.end(ptr %hdl, i1 false, token none)
  ret ptr %hdl
}

declare token @llvm.coro.id(i32, ptr, ptr, ptr)
declare i64 @llvm.coro.size.i64()
declare ptr @llvm.coro.begin(token, ptr)
declare i8 @llvm.coro.suspend(token, i1)
declare ptr @llvm.coro.free(token, ptr)
declare i1 @llvm.coro.end(ptr, i1, token)
declare ptr @malloc(i64)
declare void @free(ptr)
declare ptr @llvm.coro.async.context.alloc(ptr, ptr)
declare void @llvm.coro.async.context.dealloc(ptr)
