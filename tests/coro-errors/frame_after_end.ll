; FINDING: warning coro-frame-after-end 39:3
; A frame value read after coro.end on the ramp's return path: %count is
; used after the suspend, so it lives in the coroutine frame, and the shared
; suspend block loads it after coro.end to compute the ramp's return value.
; By then the frame may already be gone (the coroutine may have run to
; completion and freed it, or another thread may have resumed it). LLVM
; lowers it reading the frame, and so does llcoro, with a warning at that
; load. Valid IR: LLVM's verifier accepts it.
; Opaque-pointer (LLVM 19) dialect.

@.fmt = private unnamed_addr constant [4 x i8] c"%d\0A\00", align 1

define i32 @f(i32 %n) presplitcoroutine {
entry:
  %count = alloca i32, align 4
  %id = call token @llvm.coro.id(i32 0, ptr null, ptr null, ptr null)
  %size = call i32 @llvm.coro.size.i32()
  %alloc = call ptr @malloc(i32 %size)
  %hdl = call noalias ptr @llvm.coro.begin(token %id, ptr %alloc)
  store i32 %n, ptr %count, align 4
  br label %loop

loop:
  %v = load i32, ptr %count, align 4
  call void @print(i32 %v)
  %inc = add nsw i32 %v, 1
  store i32 %inc, ptr %count, align 4
  %0 = call i8 @llvm.coro.suspend(token none, i1 false)
  switch i8 %0, label %suspend [i8 0, label %loop
                                i8 1, label %cleanup]

cleanup:
  %mem = call ptr @llvm.coro.free(token %id, ptr %hdl)
  call void @free(ptr %mem)
  br label %suspend

suspend:
  %unused = call i1 @llvm.coro.end(ptr %hdl, i1 false, token none)
  %result = load i32, ptr %count, align 4
  ret i32 %result
}

define void @print(i32 %v) {
entry:
  %r = call i32 (ptr, ...) @printf(ptr @.fmt, i32 %v)
  ret void
}

declare i32 @printf(ptr, ...)
declare noalias ptr @malloc(i32)
declare void @free(ptr)

declare token @llvm.coro.id(i32, ptr, ptr, ptr)
declare i32 @llvm.coro.size.i32()
declare ptr @llvm.coro.begin(token, ptr)
declare i8 @llvm.coro.suspend(token, i1)
declare ptr @llvm.coro.free(token, ptr)
declare i1 @llvm.coro.end(ptr, i1, token)
