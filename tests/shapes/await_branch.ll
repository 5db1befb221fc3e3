; `llvm.coro.await.suspend.handle` not in its suspend's block: each arm of a
; branch calls await_suspend through its own wrapper, and both arms meet at one
; suspend. The returned handle must be resumed (LLVM resumes it right after the
; wrapper, as a plain call, since no tail call can follow it there). @other is
; the coroutine the wrappers hand back: each resume prints 100 and the number of
; times it ran. main runs @co down each arm, then resumes and destroys them.

@other.h = global ptr null

define ptr @other() presplitcoroutine {
entry:
  %id = call token @llvm.coro.id(i32 0, ptr null, ptr null, ptr null)
  %size = call i64 @llvm.coro.size.i64()
  %mem = call ptr @malloc(i64 %size)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr %mem)
  br label %loop

loop:
  %n = phi i32 [ 0, %entry ], [ %n1, %run ]
  %s = call i8 @llvm.coro.suspend(token none, i1 false)
  switch i8 %s, label %suspend [ i8 0, label %run
                                 i8 1, label %cleanup ]

run:
  %n1 = add i32 %n, 1
  call void @print(i32 100)
  call void @print(i32 %n1)
  br label %loop

cleanup:
  %m = call ptr @llvm.coro.free(token %id, ptr %hdl)
  call void @free(ptr %m)
  br label %suspend

suspend:
  %e = call i1 @llvm.coro.end(ptr null, i1 false, token none)
  ret ptr %hdl
}

define ptr @wrapper_a(ptr %awaiter, ptr %frame) {
entry:
  call void @print(i32 2)
  %h = load ptr, ptr @other.h
  ret ptr %h
}

define ptr @wrapper_b(ptr %awaiter, ptr %frame) {
entry:
  call void @print(i32 3)
  %h = load ptr, ptr @other.h
  ret ptr %h
}

define ptr @co(i1 %left) presplitcoroutine {
entry:
  %id = call token @llvm.coro.id(i32 0, ptr null, ptr null, ptr null)
  %size = call i64 @llvm.coro.size.i64()
  %mem = call ptr @malloc(i64 %size)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr %mem)
  call void @print(i32 1)
  %save = call token @llvm.coro.save(ptr null)
  br i1 %left, label %a, label %b

a:
  call void @llvm.coro.await.suspend.handle(ptr null, ptr %hdl, ptr @wrapper_a)
  br label %susp

b:
  call void @llvm.coro.await.suspend.handle(ptr null, ptr %hdl, ptr @wrapper_b)
  br label %susp

susp:
  %s = call i8 @llvm.coro.suspend(token %save, i1 false)
  switch i8 %s, label %suspend [ i8 0, label %resumed
                                 i8 1, label %cleanup ]

resumed:
  %k = select i1 %left, i32 5, i32 6
  call void @print(i32 %k)
  %f = call i8 @llvm.coro.suspend(token none, i1 true)
  switch i8 %f, label %suspend [ i8 0, label %trap
                                 i8 1, label %cleanup ]

trap:
  call void @llvm.trap()
  unreachable

cleanup:
  %m = call ptr @llvm.coro.free(token %id, ptr %hdl)
  call void @free(ptr %m)
  br label %suspend

suspend:
  %e = call i1 @llvm.coro.end(ptr null, i1 false, token none)
  ret ptr %hdl
}

define i32 @main() {
entry:
  %o = call ptr @other()
  store ptr %o, ptr @other.h
  %l = call ptr @co(i1 true)
  %r = call ptr @co(i1 false)
  call void @llvm.coro.resume(ptr %r)
  call void @llvm.coro.resume(ptr %l)
  %dl = call i1 @llvm.coro.done(ptr %l)
  %dlz = zext i1 %dl to i32
  call void @print(i32 %dlz)
  call void @llvm.coro.destroy(ptr %l)
  call void @llvm.coro.destroy(ptr %r)
  call void @llvm.coro.destroy(ptr %o)
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
declare token @llvm.coro.save(ptr)
declare i8 @llvm.coro.suspend(token, i1)
declare ptr @llvm.coro.free(token, ptr)
declare i1 @llvm.coro.end(ptr, i1, token)
declare void @llvm.coro.resume(ptr)
declare void @llvm.coro.destroy(ptr)
declare i1 @llvm.coro.done(ptr)
declare void @llvm.coro.await.suspend.handle(ptr, ptr, ptr)
