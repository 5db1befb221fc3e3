; Two allocas whose own address is not live across the suspend, yet whose bytes are read after it:
; %a only through %x, a GEP into it computed before the suspend; %b only through a copy of its
; address that @keep stores in a global. Both must live in the frame, not on the ramp's stack.
; Used by crates/llcoro/tests/frames.rs, which runs it lowered by llcoro and by LLVM: 7 then 9.
@.fmt = private constant [4 x i8] c"%d\0A\00"
@kept = global ptr null
declare i32 @printf(ptr, ...)
define void @keep(ptr %p) noinline {
  store ptr %p, ptr @kept
  ret void
}
define void @print(i32 %v) {
  %r = call i32 (ptr, ...) @printf(ptr @.fmt, i32 %v)
  ret void
}
; Overwrites the stack the ramp used, so a dangling pointer into it reads garbage.
define void @scribble() noinline {
  %junk = alloca [64 x i32], align 16
  call void @llvm.memset.p0.i64(ptr %junk, i8 85, i64 256, i1 false)
  call void @keep_junk(ptr %junk)
  ret void
}
define void @keep_junk(ptr %p) noinline {
  ret void
}
define i32 @main() {
  %h = call ptr @f()
  call void @scribble()
  call void @llvm.coro.resume(ptr %h)
  call void @llvm.coro.destroy(ptr %h)
  ret i32 0
}
declare ptr @malloc(i64)
declare void @free(ptr)
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
declare token @llvm.coro.id(i32, ptr, ptr, ptr)
declare i64 @llvm.coro.size.i64()
declare ptr @llvm.coro.begin(token, ptr)
declare i8 @llvm.coro.suspend(token, i1)
declare ptr @llvm.coro.free(token, ptr)
declare i1 @llvm.coro.end(ptr, i1, token)
declare void @llvm.coro.resume(ptr)
declare void @llvm.coro.destroy(ptr)

define ptr @f() presplitcoroutine {
entry:
  %a = alloca [2 x i32], align 8
  %b = alloca i32, align 4
  %id = call token @llvm.coro.id(i32 0, ptr null, ptr null, ptr null)
  %size = call i64 @llvm.coro.size.i64()
  %mem = call ptr @malloc(i64 %size)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr %mem)
  %x = getelementptr [2 x i32], ptr %a, i64 0, i64 1
  store i32 7, ptr %x, align 4
  store i32 9, ptr %b, align 4
  call void @keep(ptr %b)
  %s0 = call i8 @llvm.coro.suspend(token none, i1 false)
  switch i8 %s0, label %suspend [ i8 0, label %after0  i8 1, label %cleanup ]
after0:
  %va = load i32, ptr %x, align 4
  call void @print(i32 %va)
  %pb = load ptr, ptr @kept, align 8
  %vb = load i32, ptr %pb, align 4
  call void @print(i32 %vb)
  %s1 = call i8 @llvm.coro.suspend(token none, i1 true)
  switch i8 %s1, label %suspend [ i8 0, label %trap  i8 1, label %cleanup ]
trap:
  unreachable
cleanup:
  %fm = call ptr @llvm.coro.free(token %id, ptr %hdl)
  call void @free(ptr %fm)
  br label %suspend
suspend:
  %unused = call i1 @llvm.coro.end(ptr %hdl, i1 false, token none)
  ret ptr %hdl
}
