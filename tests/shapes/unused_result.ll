; Suspends whose result is unused: no switch follows them, so all three
; outcomes (suspended, resumed, destroyed) continue in the same block. The index
; is stored at each suspend, but the ramp (and a resume) runs on past it until
; the next suspend that branches on its result; only the last suspend reached
; before returning decides where a resume or destroy continues.
; Expected (LLVM's semantics): ramp 1 2, resume 3 4, resume 5, destroy at the
; final suspend -1.

define ptr @co() presplitcoroutine {
entry:
  %id = call token @llvm.coro.id(i32 0, ptr null, ptr null, ptr null)
  %size = call i64 @llvm.coro.size.i64()
  %mem = call ptr @malloc(i64 %size)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr %mem)
  call void @print(i32 1)
  %s0 = call i8 @llvm.coro.suspend(token none, i1 false)
  call void @print(i32 2)
  %s1 = call i8 @llvm.coro.suspend(token none, i1 false)
  switch i8 %s1, label %suspend [ i8 0, label %r1
                                  i8 1, label %cleanup ]

r1:
  call void @print(i32 3)
  %save2 = call token @llvm.coro.save(ptr %hdl)
  %s2 = call i8 @llvm.coro.suspend(token %save2, i1 false)
  call void @print(i32 4)
  %s3 = call i8 @llvm.coro.suspend(token none, i1 false)
  switch i8 %s3, label %suspend [ i8 0, label %r3
                                  i8 1, label %cleanup ]

r3:
  call void @print(i32 5)
  %fin = call i8 @llvm.coro.suspend(token none, i1 true)
  switch i8 %fin, label %suspend [ i8 0, label %never
                                   i8 1, label %cleanup ]

cleanup:
  call void @print(i32 -1)
  %f = call ptr @llvm.coro.free(token %id, ptr %hdl)
  call void @free(ptr %f)
  br label %suspend

suspend:
  %u = call i1 @llvm.coro.end(ptr %hdl, i1 false, token none)
  ret ptr %hdl

never:
  unreachable
}

define i32 @main() {
entry:
  %h = call ptr @co()
  call void @llvm.coro.resume(ptr %h)
  call void @llvm.coro.resume(ptr %h)
  %d = call i1 @llvm.coro.done(ptr %h)
  %dz = zext i1 %d to i32
  call void @print(i32 %dz)
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
