; Heap elision without inlining. @gen is a coroutine whose ramp returns its handle; its frame comes
; from malloc. Three callers:
; - @straight destroys the coroutine before it returns: the frame can be its alloca;
; - @looped creates and destroys one per iteration: one alloca, reused;
; - @kept returns without destroying on one path (the handle goes to a global): must stay on
;   the heap.
; Used by crates/llcoro/tests/elide.rs, which runs it lowered by llcoro and by LLVM's coro passes
; (no inlining) under valgrind: same values printed, and 5 fewer heap allocations with llcoro (only
; @kept's frame is on the heap; LLVM allocates all 6).
@.fmt = private constant [4 x i8] c"%d\0A\00"
@kept.h = global ptr null
declare i32 @printf(ptr, ...)
declare ptr @malloc(i64)
declare void @free(ptr)

define void @print(i32 %v) {
  %r = call i32 (ptr, ...) @printf(ptr @.fmt, i32 %v)
  ret void
}

define ptr @gen(i32 %start) presplitcoroutine {
entry:
  %id = call token @llvm.coro.id(i32 0, ptr null, ptr null, ptr null)
  %need = call i1 @llvm.coro.alloc(token %id)
  br i1 %need, label %alloc, label %begin
alloc:
  %size = call i64 @llvm.coro.size.i64()
  %mem = call ptr @malloc(i64 %size)
  br label %begin
begin:
  %phi = phi ptr [ null, %entry ], [ %mem, %alloc ]
  %hdl = call ptr @llvm.coro.begin(token %id, ptr %phi)
  br label %loop
loop:
  %v = phi i32 [ %start, %begin ], [ %next, %loop ]
  %next = add i32 %v, 1
  call void @print(i32 %v)
  %s = call i8 @llvm.coro.suspend(token none, i1 false)
  switch i8 %s, label %suspend [ i8 0, label %loop  i8 1, label %cleanup ]
cleanup:
  %fm = call ptr @llvm.coro.free(token %id, ptr %hdl)
  call void @free(ptr %fm)
  br label %suspend
suspend:
  %unused = call i1 @llvm.coro.end(ptr %hdl, i1 false, token none)
  ret ptr %hdl
}

define void @straight() {
  %h = call ptr @gen(i32 10)
  call void @llvm.coro.resume(ptr %h)
  call void @llvm.coro.destroy(ptr %h)
  ret void
}

define void @looped(i32 %n) {
entry:
  br label %head
head:
  %i = phi i32 [ 0, %entry ], [ %i1, %body ]
  %more = icmp slt i32 %i, %n
  br i1 %more, label %body, label %done
body:
  %h = call ptr @gen(i32 %i)
  call void @llvm.coro.resume(ptr %h)
  call void @llvm.coro.destroy(ptr %h)
  %i1 = add i32 %i, 1
  br label %head
done:
  ret void
}

define void @kept(i1 %keep) {
entry:
  %h = call ptr @gen(i32 100)
  br i1 %keep, label %store, label %drop
store:
  store ptr %h, ptr @kept.h
  ret void
drop:
  call void @llvm.coro.destroy(ptr %h)
  ret void
}

define i32 @main() {
  call void @straight()
  call void @looped(i32 4)
  call void @kept(i1 true)
  %h = load ptr, ptr @kept.h
  call void @llvm.coro.resume(ptr %h)
  call void @llvm.coro.destroy(ptr %h)
  ret i32 0
}

declare token @llvm.coro.id(i32, ptr, ptr, ptr)
declare i1 @llvm.coro.alloc(token)
declare i64 @llvm.coro.size.i64()
declare ptr @llvm.coro.begin(token, ptr)
declare i8 @llvm.coro.suspend(token, i1)
declare ptr @llvm.coro.free(token, ptr)
declare i1 @llvm.coro.end(ptr, i1, token)
declare void @llvm.coro.resume(ptr)
declare void @llvm.coro.destroy(ptr)
