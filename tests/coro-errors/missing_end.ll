; FINDING: warning coro-missing-end 19:3
; EXPECT-OUTPUT: 4 5 done
; A coroutine with no coro.end at all. LLVM 22 lowers it: the ramp keeps its
; return, and in the resume and destroy functions every return becomes
; `unreachable`. This one is well defined all the same: once resumed it never
; returns (it prints and ends the program), so llcoro lowers it with a warning
; and the program runs as LLVM's lowering of it does.
; Opaque-pointer (LLVM 19) dialect.

@.fmt = private unnamed_addr constant [4 x i8] c"%d\0A\00", align 1
@.done = private unnamed_addr constant [5 x i8] c"done\00", align 1

define ptr @f(i32 %n) presplitcoroutine {
entry:
  %id = call token @llvm.coro.id(i32 0, ptr null, ptr null, ptr null)
  %size = call i32 @llvm.coro.size.i32()
  %alloc = call ptr @malloc(i32 %size)
  %inc = add nsw i32 %n, 1
  %hdl = call noalias ptr @llvm.coro.begin(token %id, ptr %alloc)
  call void @print(i32 %n)
  %0 = call i8 @llvm.coro.suspend(token none, i1 false)
  switch i8 %0, label %suspend [i8 0, label %resume
                                i8 1, label %cleanup]

resume:
  call void @print(i32 %inc)
  %p = call i32 @puts(ptr @.done)
  call void @exit(i32 0)
  unreachable

cleanup:
  %mem = call ptr @llvm.coro.free(token %id, ptr %hdl)
  call void @free(ptr %mem)
  br label %suspend

suspend:
  ret ptr %hdl
}

define i32 @main() {
entry:
  %h = call ptr @f(i32 4)
  call void @llvm.coro.resume(ptr %h)
  ret i32 1
}

define void @print(i32 %v) {
entry:
  %r = call i32 (ptr, ...) @printf(ptr @.fmt, i32 %v)
  ret void
}

declare i32 @printf(ptr, ...)
declare i32 @puts(ptr)
declare void @exit(i32) noreturn
declare noalias ptr @malloc(i32)
declare void @free(ptr)

declare token @llvm.coro.id(i32, ptr, ptr, ptr)
declare i32 @llvm.coro.size.i32()
declare ptr @llvm.coro.begin(token, ptr)
declare i8 @llvm.coro.suspend(token, i1)
declare ptr @llvm.coro.free(token, ptr)
declare void @llvm.coro.resume(ptr)
