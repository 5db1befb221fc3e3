; coro.save separated from coro.suspend by a call. First suspend: the save,
; then @register stores the handle in a global and prints, then the suspend;
; main resumes through the global. Second suspend: the save, then
; @resume_now resumes the coroutine from inside the call (allowed once the
; save has run), so the code after the second suspend runs before @resume_now
; returns; the suspend that follows in the outer activation then just returns.
; Third: a final suspend; main checks done() and destroys.

@waiting = global ptr null

define ptr @co() presplitcoroutine {
entry:
  %id = call token @llvm.coro.id(i32 0, ptr null, ptr null, ptr null)
  %size = call i64 @llvm.coro.size.i64()
  %mem = call ptr @malloc(i64 %size)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr %mem)
  call void @print(i32 1)
  %save1 = call token @llvm.coro.save(ptr %hdl)
  call void @register(ptr %hdl)
  %s1 = call i8 @llvm.coro.suspend(token %save1, i1 false)
  switch i8 %s1, label %suspend [ i8 0, label %r1
                                  i8 1, label %cleanup ]

r1:
  call void @print(i32 3)
  %save2 = call token @llvm.coro.save(ptr %hdl)
  call void @resume_now(ptr %hdl)
  call void @print(i32 6)
  %s2 = call i8 @llvm.coro.suspend(token %save2, i1 false)
  switch i8 %s2, label %suspend [ i8 0, label %r2
                                  i8 1, label %cleanup ]

r2:
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

define void @register(ptr %h) {
entry:
  store ptr %h, ptr @waiting
  call void @print(i32 2)
  ret void
}

define void @resume_now(ptr %h) {
entry:
  call void @print(i32 4)
  call void @llvm.coro.resume(ptr %h)
  call void @print(i32 7)
  ret void
}

define i32 @main() {
entry:
  %h0 = call ptr @co()
  %h = load ptr, ptr @waiting
  call void @llvm.coro.resume(ptr %h)
  %d = call i1 @llvm.coro.done(ptr %h)
  %dz = zext i1 %d to i32
  %code = add i32 %dz, 10
  call void @print(i32 %code)
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
