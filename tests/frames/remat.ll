; Values live across a suspend that are cheap to recompute from what the frame holds anyway:
; %m = %n + 5 and %p = %n * 3 are recomputed after the resume from %n's slot instead of getting
; slots of their own; %q = %m + %p would need two loads, so it keeps its slot (the cost rule in
; crates/llcoro/src/frame.rs). Used by crates/llcoro/tests/frames.rs: prints 12, 21, 33, 7.
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

define i32 @seven() noinline {
  ret i32 7
}

define ptr @f() presplitcoroutine {
entry:
  %id = call token @llvm.coro.id(i32 0, ptr null, ptr null, ptr null)
  %size = call i64 @llvm.coro.size.i64()
  %mem = call ptr @malloc(i64 %size)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr %mem)
  %n = call i32 @seven()
  %m = add i32 %n, 5
  %p = mul i32 %n, 3
  %q = add i32 %m, %p
  %s0 = call i8 @llvm.coro.suspend(token none, i1 false)
  switch i8 %s0, label %suspend [ i8 0, label %after0  i8 1, label %cleanup ]
after0:
  call void @print(i32 %m)
  call void @print(i32 %p)
  call void @print(i32 %q)
  call void @print(i32 %n)
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
