; FINDING: error coro-outside-frame 22:3
; An alloca marked !coro.outside.frame (the marker says it lives only in the
; ramp) is written before the suspend and read after a resume. The split
; functions have only a fresh copy of it, so the read would see garbage; LLVM's
; own lowering reads the same fresh copy. llcoro refuses it at the read, not at
; the alloca. Uses by lifetime markers, or on the ramp's return path after
; coro.end, would be fine. Valid IR: LLVM's verifier accepts it.
; Opaque-pointer (LLVM 19) dialect.

define ptr @f(i32 %n) presplitcoroutine {
entry:
  %keep = alloca i32, align 4, !coro.outside.frame !0
  %id = call token @llvm.coro.id(i32 0, ptr null, ptr null, ptr null)
  %size = call i32 @llvm.coro.size.i32()
  %alloc = call ptr @malloc(i32 %size)
  %hdl = call noalias ptr @llvm.coro.begin(token %id, ptr %alloc)
  store i32 %n, ptr %keep, align 4
  %s = call i8 @llvm.coro.suspend(token none, i1 false)
  switch i8 %s, label %suspend [i8 0, label %resume
                                i8 1, label %cleanup]
resume:
  %v = load i32, ptr %keep, align 4
  call void @print(i32 %v)
  br label %cleanup
cleanup:
  %mem = call ptr @llvm.coro.free(token %id, ptr %hdl)
  call void @free(ptr %mem)
  br label %suspend
suspend:
  %unused = call i1 @llvm.coro.end(ptr %hdl, i1 false, token none)
  ret ptr %hdl
}

declare void @print(i32)
declare ptr @malloc(i32)
declare void @free(ptr)
declare token @llvm.coro.id(i32, ptr, ptr, ptr)
declare i32 @llvm.coro.size.i32()
declare ptr @llvm.coro.begin(token, ptr)
declare i8 @llvm.coro.suspend(token, i1)
declare ptr @llvm.coro.free(token, ptr)
declare i1 @llvm.coro.end(ptr, i1, token)

!0 = !{}
