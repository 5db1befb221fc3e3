; FINDING: warning coro-separate-suspend-blocks 38:3
; Each suspend point has a suspend block of its own, but unlike llgo's
; mistake every one of them calls coro.end before returning the handle. Not
; the canonical shape (one shared suspend block, seed 001), but lowerable:
; llcoro warns at the second suspend's switch and lowers it correctly.
; print(n), suspend, print(n+1), suspend, print(n+2), final suspend; main
; resumes until done() and then destroys the frame.
; LLVM's own CoroSplit (opt-19 -passes=coro-early,coro-split) aborts on this
; input with "Only one coro.end can be marked as fallthrough"; its verifier
; accepts it.
; Opaque-pointer (LLVM 19) dialect.
; EXPECT-OUTPUT: 7 8 9 1

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
  %end.1 = call i1 @llvm.coro.end(ptr %hdl, i1 false, token none)
  ret ptr %hdl

resume.1:
  %n1 = add i32 %n, 1
  call void @print(i32 %n1)
  br label %second

second:
  %s2 = call i8 @llvm.coro.suspend(token none, i1 false)
  switch i8 %s2, label %suspend.2 [i8 0, label %resume.2
                                   i8 1, label %cleanup]

suspend.2:
  %end.2 = call i1 @llvm.coro.end(ptr %hdl, i1 false, token none)
  ret ptr %hdl

resume.2:
  %n2 = add i32 %n, 2
  call void @print(i32 %n2)
  %s3 = call i8 @llvm.coro.suspend(token none, i1 true)
  switch i8 %s3, label %suspend.3 [i8 0, label %trap
                                   i8 1, label %cleanup]

suspend.3:
  %end.3 = call i1 @llvm.coro.end(ptr %hdl, i1 false, token none)
  ret ptr %hdl

trap:
  call void @llvm.trap()
  unreachable

cleanup:
  %mem = call ptr @llvm.coro.free(token %id, ptr %hdl)
  call void @free(ptr %mem)
  br label %suspend.3
}

define i32 @main() {
entry:
  %hdl = call ptr @f(i32 7)
  br label %loop

loop:
  call void @llvm.coro.resume(ptr %hdl)
  %done = call i1 @llvm.coro.done(ptr %hdl)
  br i1 %done, label %end, label %loop

end:
  %d = zext i1 %done to i32
  call void @print(i32 %d)
  call void @llvm.coro.destroy(ptr %hdl)
  ret i32 0
}

define void @print(i32 %v) {
entry:
  %r = call i32 (ptr, ...) @printf(ptr @.fmt, i32 %v)
  ret void
}

declare i32 @printf(ptr, ...)
declare noalias ptr @malloc(i32)
declare void @free(ptr)
declare void @llvm.trap()

declare token @llvm.coro.id(i32, ptr, ptr, ptr)
declare i32 @llvm.coro.size.i32()
declare ptr @llvm.coro.begin(token, ptr)
declare i8 @llvm.coro.suspend(token, i1)
declare ptr @llvm.coro.free(token, ptr)
declare i1 @llvm.coro.end(ptr, i1, token)
declare i1 @llvm.coro.done(ptr)
declare void @llvm.coro.resume(ptr)
declare void @llvm.coro.destroy(ptr)
