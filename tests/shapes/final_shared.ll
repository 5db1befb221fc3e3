; One final suspend reached from two paths (odd and even argument, each with
; its own work and a phi carrying which path ran). LLVM allows only one final
; suspend per coroutine ("Only one suspend point can be marked as final"), so
; this is the two-final-suspends shape reshaped. The final suspend's switch
; has no resume case: resuming at a final suspend is undefined, so the default
; (suspended) edge takes it. main runs one coroutine of each parity to its
; final suspend, checks done() before and after, and destroys it; the cleanup
; uses the phi.

define ptr @co(i32 %n) presplitcoroutine {
entry:
  %id = call token @llvm.coro.id(i32 0, ptr null, ptr null, ptr null)
  %size = call i64 @llvm.coro.size.i64()
  %mem = call ptr @malloc(i64 %size)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr %mem)
  call void @print(i32 %n)
  %s = call i8 @llvm.coro.suspend(token none, i1 false)
  switch i8 %s, label %suspend [ i8 0, label %resumed
                                 i8 1, label %cleanup ]

resumed:
  %bit = and i32 %n, 1
  %odd = icmp ne i32 %bit, 0
  br i1 %odd, label %odd.path, label %even.path

odd.path:
  call void @print(i32 111)
  br label %final

even.path:
  call void @print(i32 222)
  br label %final

final:
  %which = phi i32 [ 1, %odd.path ], [ 2, %even.path ]
  %fin = call i8 @llvm.coro.suspend(token none, i1 true)
  switch i8 %fin, label %suspend [ i8 1, label %final.cleanup ]

final.cleanup:
  %w = mul i32 %which, 1000
  call void @print(i32 %w)
  br label %cleanup

cleanup:
  %neg = sub i32 0, %n
  call void @print(i32 %neg)
  %f = call ptr @llvm.coro.free(token %id, ptr %hdl)
  call void @free(ptr %f)
  br label %suspend

suspend:
  %u = call i1 @llvm.coro.end(ptr %hdl, i1 false, token none)
  ret ptr %hdl
}

define void @drive(i32 %n) {
entry:
  %h = call ptr @co(i32 %n)
  %d0 = call i1 @llvm.coro.done(ptr %h)
  %d0z = zext i1 %d0 to i32
  call void @print(i32 %d0z)
  call void @llvm.coro.resume(ptr %h)
  %d1 = call i1 @llvm.coro.done(ptr %h)
  %d1z = zext i1 %d1 to i32
  call void @print(i32 %d1z)
  call void @llvm.coro.destroy(ptr %h)
  ret void
}

define i32 @main() {
entry:
  call void @drive(i32 3)
  call void @drive(i32 4)
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
