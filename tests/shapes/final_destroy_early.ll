; Destroying before the final suspend and at it, with cleanup that depends on
; where the coroutine stopped: each suspend's destroy edge goes to its own
; cleanup block (printing which one) before the shared frame release. main
; destroys one instance at its first suspend, one at its second, and runs a
; third to its final suspend (done() = 1) before destroying it.

define ptr @co(i32 %tag) presplitcoroutine {
entry:
  %id = call token @llvm.coro.id(i32 0, ptr null, ptr null, ptr null)
  %size = call i64 @llvm.coro.size.i64()
  %mem = call ptr @malloc(i64 %size)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr %mem)
  call void @print(i32 %tag)
  %s1 = call i8 @llvm.coro.suspend(token none, i1 false)
  switch i8 %s1, label %suspend [ i8 0, label %r1
                                  i8 1, label %destroy.at.1 ]

r1:
  %t2 = add i32 %tag, 1
  call void @print(i32 %t2)
  %s2 = call i8 @llvm.coro.suspend(token none, i1 false)
  switch i8 %s2, label %suspend [ i8 0, label %r2
                                  i8 1, label %destroy.at.2 ]

r2:
  %t3 = add i32 %tag, 2
  call void @print(i32 %t3)
  %fin = call i8 @llvm.coro.suspend(token none, i1 true)
  switch i8 %fin, label %suspend [ i8 0, label %never
                                   i8 1, label %destroy.at.final ]

destroy.at.1:
  call void @print(i32 -1)
  br label %release

destroy.at.2:
  call void @print(i32 -2)
  br label %release

destroy.at.final:
  call void @print(i32 -3)
  br label %release

release:
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
  %a = call ptr @co(i32 10)
  call void @llvm.coro.destroy(ptr %a)
  %b = call ptr @co(i32 20)
  call void @llvm.coro.resume(ptr %b)
  call void @llvm.coro.destroy(ptr %b)
  %c = call ptr @co(i32 30)
  call void @llvm.coro.resume(ptr %c)
  call void @llvm.coro.resume(ptr %c)
  %d = call i1 @llvm.coro.done(ptr %c)
  %dz = zext i1 %d to i32
  call void @print(i32 %dz)
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
declare token @llvm.coro.save(ptr)
declare i8 @llvm.coro.suspend(token, i1)
declare ptr @llvm.coro.free(token, ptr)
declare i1 @llvm.coro.end(ptr, i1, token)
declare void @llvm.coro.resume(ptr)
declare void @llvm.coro.destroy(ptr)
declare i1 @llvm.coro.done(ptr)
declare ptr @llvm.coro.promise(ptr, i32, i1)
