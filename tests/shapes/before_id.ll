; Values made before coro.id and used after a suspend: a malloc'd object
; (%obj, allocated before coro.id) that the ramp returns instead of the handle,
; and the function arguments %k and %step. The object holds the handle at
; offset 0 (main resumes through it) and a counter at offset 8 that the body
; updates after every resume; %k and %step are read after each suspend.
; main: co(7, 100); resume twice through the stored handle, print the counter,
; destroy (which frees the object too).

define ptr @co(i32 %k, i32 %step) presplitcoroutine {
entry:
  %obj = call ptr @malloc(i64 16)
  %cnt = getelementptr inbounds i8, ptr %obj, i64 8
  store i32 %k, ptr %cnt
  %id = call token @llvm.coro.id(i32 0, ptr null, ptr null, ptr null)
  %size = call i64 @llvm.coro.size.i64()
  %mem = call ptr @malloc(i64 %size)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr %mem)
  store ptr %hdl, ptr %obj
  br label %loop

loop:
  %s = call i8 @llvm.coro.suspend(token none, i1 false)
  switch i8 %s, label %suspend [ i8 0, label %resume
                                 i8 1, label %cleanup ]

resume:
  %old = load i32, ptr %cnt
  %new = add i32 %old, %step
  store i32 %new, ptr %cnt
  call void @print(i32 %k)
  call void @print(i32 %new)
  br label %loop

cleanup:
  %last = load i32, ptr %cnt
  %neg = sub i32 0, %last
  call void @print(i32 %neg)
  call void @free(ptr %obj)
  %f = call ptr @llvm.coro.free(token %id, ptr %hdl)
  call void @free(ptr %f)
  br label %suspend

suspend:
  %u = call i1 @llvm.coro.end(ptr %hdl, i1 false, token none)
  ret ptr %obj
}

define i32 @main() {
entry:
  %o = call ptr @co(i32 7, i32 100)
  %h = load ptr, ptr %o
  call void @llvm.coro.resume(ptr %h)
  %h2 = load ptr, ptr %o
  call void @llvm.coro.resume(ptr %h2)
  %c = getelementptr inbounds i8, ptr %o, i64 8
  %v = load i32, ptr %c
  call void @print(i32 %v)
  %h3 = load ptr, ptr %o
  call void @llvm.coro.destroy(ptr %h3)
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
