; Two 64-byte locals, each alive across a different suspend point only (lifetime markers say so, and
; their addresses never escape), so they can share frame bytes; a third escapes to @use and is alive
; across both, so it cannot. Used by crates/llcoro/tests/frames.rs, which also lowers and runs it
; (see @main) and checks the output: 1 2.
@.fmt = private constant [4 x i8] c"%d\0A\00"
declare i32 @printf(ptr, ...)
@escaped = global ptr null
define void @use(ptr %p) {
  store ptr %p, ptr @escaped
  ret void
}
define void @print(i32 %v) {
  %r = call i32 (ptr, ...) @printf(ptr @.fmt, i32 %v)
  ret void
}
define i32 @main() {
  %h = call ptr @f()
  call void @llvm.coro.resume(ptr %h)
  call void @llvm.coro.resume(ptr %h)
  call void @llvm.coro.destroy(ptr %h)
  ret i32 0
}
declare ptr @malloc(i64)
declare void @free(ptr)
declare void @llvm.lifetime.start.p0(i64, ptr)
declare void @llvm.lifetime.end.p0(i64, ptr)
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
  %a = alloca [64 x i8], align 8
  %b = alloca [64 x i8], align 8
  %c = alloca [64 x i8], align 8
  %id = call token @llvm.coro.id(i32 0, ptr null, ptr null, ptr null)
  %size = call i64 @llvm.coro.size.i64()
  %mem = call ptr @malloc(i64 %size)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr %mem)
  call void @llvm.lifetime.start.p0(i64 64, ptr %c)
  call void @use(ptr %c)
  br label %first
first:
  call void @llvm.lifetime.start.p0(i64 64, ptr %a)
  store i32 1, ptr %a, align 8
  %s0 = call i8 @llvm.coro.suspend(token none, i1 false)
  switch i8 %s0, label %suspend [ i8 0, label %after0  i8 1, label %cleanup ]
after0:
  %va = load i32, ptr %a, align 8
  call void @print(i32 %va)
  call void @llvm.lifetime.end.p0(i64 64, ptr %a)
  br label %second
second:
  call void @llvm.lifetime.start.p0(i64 64, ptr %b)
  store i32 2, ptr %b, align 8
  %s1 = call i8 @llvm.coro.suspend(token none, i1 false)
  switch i8 %s1, label %suspend [ i8 0, label %after1  i8 1, label %cleanup ]
after1:
  %vb = load i32, ptr %b, align 8
  call void @print(i32 %vb)
  call void @llvm.lifetime.end.p0(i64 64, ptr %b)
  br label %third
third:
  call void @use(ptr %c)
  %s2 = call i8 @llvm.coro.suspend(token none, i1 true)
  switch i8 %s2, label %suspend [ i8 0, label %trap  i8 1, label %cleanup ]
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
