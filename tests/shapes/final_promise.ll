; A generator in the Python style of the Coroutines document: an initial
; suspend, one suspend per yielded value (stored in the i32 promise), and a
; final suspend whose resume edge traps. main's loop is the document's
; __next__: resume, stop when done(), else read the promise through
; coro.promise; then destroy. The promise is written after the final suspend
; is decided too (-7 before the final suspend), and main reads it after done.

define ptr @gen(i32 %n) presplitcoroutine {
entry:
  %cur = alloca i32
  %id = call token @llvm.coro.id(i32 0, ptr %cur, ptr null, ptr null)
  %size = call i64 @llvm.coro.size.i64()
  %mem = call ptr @malloc(i64 %size)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr %mem)
  %init = call i8 @llvm.coro.suspend(token none, i1 false)
  switch i8 %init, label %suspend [ i8 0, label %head
                                    i8 1, label %cleanup ]

head:
  %i = phi i32 [ 0, %entry ], [ %i.next, %yielded ]
  %more = icmp slt i32 %i, %n
  br i1 %more, label %yield, label %final

yield:
  %sq = mul i32 %i, %i
  store i32 %sq, ptr %cur
  %y = call i8 @llvm.coro.suspend(token none, i1 false)
  switch i8 %y, label %suspend [ i8 0, label %yielded
                                 i8 1, label %cleanup ]

yielded:
  %i.next = add i32 %i, 1
  br label %head

final:
  store i32 -7, ptr %cur
  %fin = call i8 @llvm.coro.suspend(token none, i1 true)
  switch i8 %fin, label %suspend [ i8 0, label %trap
                                   i8 1, label %cleanup ]

trap:
  call void @llvm.trap()
  unreachable

cleanup:
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
  %h = call ptr @gen(i32 4)
  %p = call ptr @llvm.coro.promise(ptr %h, i32 4, i1 false)
  br label %next

next:
  call void @llvm.coro.resume(ptr %h)
  %d = call i1 @llvm.coro.done(ptr %h)
  br i1 %d, label %stop, label %value

value:
  %v = load i32, ptr %p
  call void @print(i32 %v)
  br label %next

stop:
  %last = load i32, ptr %p
  call void @print(i32 %last)
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
declare token @llvm.coro.save(ptr)
declare i8 @llvm.coro.suspend(token, i1)
declare ptr @llvm.coro.free(token, ptr)
declare i1 @llvm.coro.end(ptr, i1, token)
declare void @llvm.coro.resume(ptr)
declare void @llvm.coro.destroy(ptr)
declare i1 @llvm.coro.done(ptr)
declare ptr @llvm.coro.promise(ptr, i32, i1)
