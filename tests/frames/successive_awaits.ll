; Two 64-byte locals whose addresses escape (to @use), each alive across a different suspend
; point only (lifetime markers end each one on its resume and on its destroy path), as the awaiters
; of two successive co_awaits are: they can share frame bytes. Each suspend leaves to the return
; block the others share; the frame outlives that edge, so it is no place where both are alive.
; Used by crates/llcoro/tests/frames.rs, which also lowers and runs it (see @main): 1 2.
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
  %id = call token @llvm.coro.id(i32 0, ptr null, ptr null, ptr null)
  %size = call i64 @llvm.coro.size.i64()
  %mem = call ptr @malloc(i64 %size)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr %mem)
  br label %first
first:
  call void @llvm.lifetime.start.p0(i64 64, ptr %a)
  store i32 1, ptr %a, align 8
  call void @use(ptr %a)
  %s0 = call i8 @llvm.coro.suspend(token none, i1 false)
  switch i8 %s0, label %suspend [ i8 0, label %after0  i8 1, label %drop0 ]
after0:
  %pa = load ptr, ptr @escaped
  %va = load i32, ptr %pa, align 8
  call void @print(i32 %va)
  call void @llvm.lifetime.end.p0(i64 64, ptr %a)
  br label %second
drop0:
  call void @llvm.lifetime.end.p0(i64 64, ptr %a)
  br label %cleanup
second:
  call void @llvm.lifetime.start.p0(i64 64, ptr %b)
  store i32 2, ptr %b, align 8
  call void @use(ptr %b)
  %s1 = call i8 @llvm.coro.suspend(token none, i1 false)
  switch i8 %s1, label %suspend [ i8 0, label %after1  i8 1, label %drop1 ]
after1:
  %pb = load ptr, ptr @escaped
  %vb = load i32, ptr %pb, align 8
  call void @print(i32 %vb)
  call void @llvm.lifetime.end.p0(i64 64, ptr %b)
  br label %third
drop1:
  call void @llvm.lifetime.end.p0(i64 64, ptr %b)
  br label %cleanup
third:
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
