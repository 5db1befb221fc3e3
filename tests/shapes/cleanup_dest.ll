; Clang's cleanup destinations: after a suspend, its resume and destroy edges meet
; in a block whose phi says where to go next (0: carry on, anything else: clean
; up), and a switch on that phi decides. Here one destination is a phi fed by
; another switch's path, and one is an i8 -1 that its case spells 255. A part
; entered on a destroy edge runs only cleanups; the body behind the switches must
; still run where the resume edge leads.
; main: one coroutine resumed to its final suspend and destroyed there, one
; destroyed at its loop's suspend, one destroyed at its first suspend.

define ptr @co(i32 %n) presplitcoroutine {
entry:
  %id = call token @llvm.coro.id(i32 0, ptr null, ptr null, ptr null)
  %size = call i64 @llvm.coro.size.i64()
  %mem = call ptr @malloc(i64 %size)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr %mem)
  call void @print(i32 %n)
  %s0 = call i8 @llvm.coro.suspend(token none, i1 false)
  switch i8 %s0, label %suspend [ i8 0, label %r0
                                  i8 1, label %d0 ]

r0:
  br label %j0

d0:
  br label %j0

j0:
  %dest0 = phi i32 [ 0, %r0 ], [ 2, %d0 ]
  switch i32 %dest0, label %cleanup.outer [ i32 0, label %body ]

body:
  %i = phi i32 [ 0, %j0 ], [ %i.next, %latch ]
  call void @print(i32 %i)
  %s1 = call i8 @llvm.coro.suspend(token none, i1 false)
  switch i8 %s1, label %suspend [ i8 0, label %r1
                                  i8 1, label %d1 ]

r1:
  br label %j1

d1:
  br label %j1

j1:
  %dest1 = phi i8 [ 0, %r1 ], [ -1, %d1 ]
  switch i8 %dest1, label %latch [ i8 255, label %cleanup.inner ]

latch:
  %i.next = add i32 %i, 1
  %more = icmp slt i32 %i.next, %n
  br i1 %more, label %body, label %done

done:
  br label %cleanup.inner

cleanup.inner:
  %dest2 = phi i32 [ 3, %j1 ], [ 0, %done ]
  call void @print(i32 100)
  switch i32 %dest2, label %cleanup.outer [ i32 0, label %final ]

final:
  call void @print(i32 200)
  %sf = call i8 @llvm.coro.suspend(token none, i1 true)
  switch i8 %sf, label %suspend [ i8 0, label %trap
                                  i8 1, label %cleanup.outer ]

trap:
  unreachable

cleanup.outer:
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
  %a = call ptr @co(i32 2)
  call void @llvm.coro.resume(ptr %a)
  call void @llvm.coro.resume(ptr %a)
  call void @llvm.coro.resume(ptr %a)
  call void @llvm.coro.destroy(ptr %a)
  %b = call ptr @co(i32 5)
  call void @llvm.coro.resume(ptr %b)
  call void @llvm.coro.destroy(ptr %b)
  %c = call ptr @co(i32 7)
  call void @llvm.coro.destroy(ptr %c)
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
declare i8 @llvm.coro.suspend(token, i1)
declare ptr @llvm.coro.free(token, ptr)
declare i1 @llvm.coro.end(ptr, i1, token)
declare void @llvm.coro.resume(ptr)
declare void @llvm.coro.destroy(ptr)
