; A coroutine WITHOUT the presplitcoroutine attribute (as the Coroutines
; document writes its examples). llcoro lowers it with a warning; LLVM 19 and
; 22 leave a function without the attribute unsplit, so the harness lowers a
; copy with the attribute added for its LLVM reference. Its coro.free result is
; tested before the free, as clang writes it.
; main: ramp with 3, resume twice, destroy; prints 3, 6, 12, -1.

define ptr @co(i32 %n) {
entry:
  %id = call token @llvm.coro.id(i32 0, ptr null, ptr null, ptr null)
  %size = call i64 @llvm.coro.size.i64()
  %mem = call ptr @malloc(i64 %size)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr %mem)
  br label %loop

loop:
  %i = phi i32 [ %n, %entry ], [ %i.next, %loop ]
  %i.next = mul i32 %i, 2
  call void @print(i32 %i)
  %s = call i8 @llvm.coro.suspend(token none, i1 false)
  switch i8 %s, label %suspend [ i8 0, label %loop
                                 i8 1, label %cleanup ]

cleanup:
  call void @print(i32 -1)
  %f = call ptr @llvm.coro.free(token %id, ptr %hdl)
  %nonnull = icmp ne ptr %f, null
  br i1 %nonnull, label %dofree, label %suspend

dofree:
  call void @free(ptr %f)
  br label %suspend

suspend:
  %u = call i1 @llvm.coro.end(ptr %hdl, i1 false, token none)
  ret ptr %hdl
}

define i32 @main() {
entry:
  %h = call ptr @co(i32 3)
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
