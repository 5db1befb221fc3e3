; The suspend result flows through a phi before it is switched on: two suspends
; in different blocks (taken on odd and even counts) both branch to one
; dispatch block, where a phi merges their results and the switch uses the phi.
; main: ramp with 1, resume three times, destroy.

define ptr @co(i32 %n) presplitcoroutine {
entry:
  %id = call token @llvm.coro.id(i32 0, ptr null, ptr null, ptr null)
  %size = call i64 @llvm.coro.size.i64()
  %mem = call ptr @malloc(i64 %size)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr %mem)
  br label %loop

loop:
  %i = phi i32 [ %n, %entry ], [ %i.next, %resume ]
  %bit = and i32 %i, 1
  %odd = icmp ne i32 %bit, 0
  br i1 %odd, label %odd.block, label %even.block

odd.block:
  call void @print(i32 %i)
  %s.odd = call i8 @llvm.coro.suspend(token none, i1 false)
  br label %dispatch

even.block:
  %neg = sub i32 0, %i
  call void @print(i32 %neg)
  %s.even = call i8 @llvm.coro.suspend(token none, i1 false)
  br label %dispatch

dispatch:
  %s = phi i8 [ %s.odd, %odd.block ], [ %s.even, %even.block ]
  %from = phi i32 [ 1000, %odd.block ], [ 2000, %even.block ]
  switch i8 %s, label %suspend [ i8 0, label %resume
                                 i8 1, label %cleanup ]

resume:
  call void @print(i32 %from)
  %i.next = add i32 %i, 1
  br label %loop

cleanup:
  call void @print(i32 %from)
  call void @print(i32 -1)
  %f = call ptr @llvm.coro.free(token %id, ptr %hdl)
  call void @free(ptr %f)
  br label %suspend

suspend:
  %u = call i1 @llvm.coro.end(ptr %hdl, i1 false, token none)
  ret ptr %hdl
}

define i32 @main() {
entry:
  %h = call ptr @co(i32 1)
  call void @llvm.coro.resume(ptr %h)
  call void @llvm.coro.resume(ptr %h)
  call void @llvm.coro.resume(ptr %h)
  call void @llvm.coro.destroy(ptr %h)
  ret i32 0
}

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
declare ptr @llvm.coro.promise(ptr, i32, i1)
