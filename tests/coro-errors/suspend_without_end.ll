; FINDING: error coro-suspend-without-end 30:3
; llgo's mistake 1 (seed 001): each suspend point has a suspend block of its
; own that returns the handle WITHOUT calling coro.end. Only the cleanup path
; reaches coro.end. LLVM's verifier accepts this (it is valid IR), but
; CoroSplit needs coro.end on every suspend path a resumed coroutine can
; take: it turns that return into `unreachable` in .resume. The first suspend
; runs only in the ramp, which keeps its return, so only the second is refused.
; Opaque-pointer (LLVM 19) dialect.

@.fmt = private unnamed_addr constant [4 x i8] c"%d\0A\00", align 1

define ptr @f(i32 %n) presplitcoroutine {
entry:
  %id = call token @llvm.coro.id(i32 0, ptr null, ptr null, ptr null)
  %size = call i32 @llvm.coro.size.i32()
  %alloc = call ptr @malloc(i32 %size)
  %hdl = call noalias ptr @llvm.coro.begin(token %id, ptr %alloc)
  call void @print(i32 %n)
  %s1 = call i8 @llvm.coro.suspend(token none, i1 false)
  switch i8 %s1, label %suspend.1 [i8 0, label %resume.1
                                   i8 1, label %cleanup]

suspend.1:
  ret ptr %hdl

resume.1:
  %n1 = add i32 %n, 1
  call void @print(i32 %n1)
  %s2 = call i8 @llvm.coro.suspend(token none, i1 false)
  switch i8 %s2, label %suspend.2 [i8 0, label %cleanup
                                   i8 1, label %cleanup]

suspend.2:
  ret ptr %hdl

cleanup:
  %mem = call ptr @llvm.coro.free(token %id, ptr %hdl)
  call void @free(ptr %mem)
  br label %coro.end

coro.end:
  %unused = call i1 @llvm.coro.end(ptr %hdl, i1 false, token none)
  ret ptr %hdl
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
