; The initial suspend's default edge returns straight away, without coro.end:
; only the ramp can take it (no resume or destroy edge leads back to that
; suspend), and the ramp keeps its returns, so LLVM lowers it correctly. The
; later suspends, which .resume runs, reach coro.end as they must. main resumes
; to the end of the loop and destroys once done.

define ptr @co(i32 %n) presplitcoroutine {
entry:
  %id = call token @llvm.coro.id(i32 0, ptr null, ptr null, ptr null)
  %size = call i64 @llvm.coro.size.i64()
  %mem = call ptr @malloc(i64 %size)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr %mem)
  call void @print(i32 1)
  %init = call i8 @llvm.coro.suspend(token none, i1 false)
  switch i8 %init, label %ramp.return [ i8 0, label %body
                                        i8 1, label %cleanup ]

ramp.return:
  ret ptr %hdl

body:
  %i = phi i32 [ 0, %entry ], [ %i1, %next ]
  %v = add i32 %i, 10
  call void @print(i32 %v)
  %i1 = add i32 %i, 1
  %more = icmp slt i32 %i1, %n
  br i1 %more, label %step, label %final

step:
  %s = call i8 @llvm.coro.suspend(token none, i1 false)
  switch i8 %s, label %suspend [ i8 0, label %next
                                 i8 1, label %cleanup ]

next:
  br label %body

final:
  %f = call i8 @llvm.coro.suspend(token none, i1 true)
  switch i8 %f, label %suspend [ i8 0, label %trap
                                 i8 1, label %cleanup ]

trap:
  call void @llvm.trap()
  unreachable

cleanup:
  call void @print(i32 99)
  %m = call ptr @llvm.coro.free(token %id, ptr %hdl)
  call void @free(ptr %m)
  br label %suspend

suspend:
  %e = call i1 @llvm.coro.end(ptr null, i1 false, token none)
  ret ptr %hdl
}

define i32 @main() {
entry:
  %h = call ptr @co(i32 3)
  br label %loop

loop:
  call void @llvm.coro.resume(ptr %h)
  %d = call i1 @llvm.coro.done(ptr %h)
  br i1 %d, label %done, label %loop

done:
  call void @print(i32 7)
  call void @llvm.coro.destroy(ptr %h)
  ret i32 0
}

declare void @llvm.trap()

@.fmt = private unnamed_addr constant [4 x i8] c"%d\0A\00"

define void @print(i32 %v) {
entry:
  %r = call i32 (ptr, ...) @printf(ptr @.fmt, i32 %v)
  ret void
}

declare i32 @printf(ptr, ...)
declare ptr @malloc(i64)
declare void @free(ptr)
declare token @llvm.coro.id(i32, ptr, ptr, ptr)
declare i64 @llvm.coro.size.i64()
declare ptr @llvm.coro.begin(token, ptr)
declare i8 @llvm.coro.suspend(token, i1)
declare ptr @llvm.coro.free(token, ptr)
declare i1 @llvm.coro.end(ptr, i1, token)
declare void @llvm.coro.resume(ptr)
declare void @llvm.coro.destroy(ptr)
declare i1 @llvm.coro.done(ptr)
