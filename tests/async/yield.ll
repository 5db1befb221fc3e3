; An async coroutine (coro.id.async) that suspends twice through a small run queue, with values
; live across both suspends, and returns to its caller's continuation through coro.end.async's
; must-tail function. Context header (32 bytes): +0 the caller's context, +8 the function to
; return to, +16 a value slot.
@fmt = private constant [8 x i8] c"%s %ld\0A\00"
@s.start = private constant [6 x i8] c"start\00"
@s.step = private constant [5 x i8] c"step\00"
@s.done = private constant [5 x i8] c"done\00"
@s.size = private constant [12 x i8] c"size>header\00"
@s.end = private constant [4 x i8] c"end\00"
declare i32 @printf(ptr, ...)
declare ptr @calloc(i64, i64)
declare void @free(ptr)

; The run queue: (function, context) pairs, run in order.
@queue.fn = internal global [16 x ptr] zeroinitializer
@queue.ctx = internal global [16 x ptr] zeroinitializer
@queue.head = internal global i64 0
@queue.tail = internal global i64 0

define void @schedule(ptr %fn, ptr %ctx) {
  %t = load i64, ptr @queue.tail
  %f = getelementptr [16 x ptr], ptr @queue.fn, i64 0, i64 %t
  store ptr %fn, ptr %f
  %c = getelementptr [16 x ptr], ptr @queue.ctx, i64 0, i64 %t
  store ptr %ctx, ptr %c
  %t1 = add i64 %t, 1
  store i64 %t1, ptr @queue.tail
  ret void
}

define void @run() {
entry:
  br label %loop
loop:
  %h = load i64, ptr @queue.head
  %t = load i64, ptr @queue.tail
  %more = icmp ult i64 %h, %t
  br i1 %more, label %body, label %out
body:
  %f = getelementptr [16 x ptr], ptr @queue.fn, i64 0, i64 %h
  %fn = load ptr, ptr %f
  %c = getelementptr [16 x ptr], ptr @queue.ctx, i64 0, i64 %h
  %ctx = load ptr, ptr %c
  %h1 = add i64 %h, 1
  store i64 %h1, ptr @queue.head
  call void %fn(ptr %ctx)
  br label %loop
out:
  ret void
}

; A suspend's must-tail function: the continuation goes on the queue, and the coroutine returns.
define void @yield.apply(ptr %resume, ptr %ctx) {
  call void @schedule(ptr %resume, ptr %ctx)
  ret void
}

; The continuation is called with this coroutine's own context.
define ptr @same.context(ptr %ctx) {
  ret ptr %ctx
}

; Return to the caller: the function at +8 of the context, with the context.
define void @return.to.caller(ptr %ctx) {
  %slot = getelementptr inbounds i8, ptr %ctx, i64 8
  %r = load ptr, ptr %slot
  musttail call void %r(ptr %ctx)
  ret void
}

@counter_fp = constant <{ i32, i32 }> <{ i32 0, i32 32 }>

define void @counter(ptr %ctx) presplitcoroutine {
entry:
  %id = call token @llvm.coro.id.async(i32 32, i32 16, i32 0, ptr @counter_fp)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr null)
  %vslot = getelementptr inbounds i8, ptr %ctx, i64 16
  %start = load i64, ptr %vslot
  call i32 (ptr, ...) @printf(ptr @fmt, ptr @s.start, i64 %start)
  %twice = mul i64 %start, 2
  %r0 = call ptr @llvm.coro.async.resume()
  %res0 = call { ptr } (i32, ptr, ptr, ...) @llvm.coro.suspend.async(i32 0, ptr %r0, ptr @same.context, ptr @yield.apply, ptr %r0, ptr %ctx)
  %c0 = extractvalue { ptr } %res0, 0
  %a = add i64 %twice, 1
  call i32 (ptr, ...) @printf(ptr @fmt, ptr @s.step, i64 %a)
  %r1 = call ptr @llvm.coro.async.resume()
  %res1 = call { ptr } (i32, ptr, ptr, ...) @llvm.coro.suspend.async(i32 0, ptr %r1, ptr @same.context, ptr @yield.apply, ptr %r1, ptr %c0)
  %c1 = extractvalue { ptr } %res1, 0
  %b = add i64 %a, %start
  call i32 (ptr, ...) @printf(ptr @fmt, ptr @s.step, i64 %b)
  %out = getelementptr inbounds i8, ptr %c1, i64 16
  store i64 %b, ptr %out
  call i1 (ptr, i1, ...) @llvm.coro.end.async(ptr %hdl, i1 false, ptr @return.to.caller, ptr %c1)
  unreachable
}

define void @finished(ptr %ctx) {
  %vslot = getelementptr inbounds i8, ptr %ctx, i64 16
  %v = load i64, ptr %vslot
  call i32 (ptr, ...) @printf(ptr @fmt, ptr @s.done, i64 %v)
  ret void
}

define i32 @main() {
  ; The context is as large as the async function pointer says, once the frame is laid out.
  %szp = getelementptr inbounds <{ i32, i32 }>, ptr @counter_fp, i32 0, i32 1
  %sz32 = load i32, ptr %szp
  %sz = zext i32 %sz32 to i64
  %bigger = icmp ugt i64 %sz, 32
  %flag = zext i1 %bigger to i64
  call i32 (ptr, ...) @printf(ptr @fmt, ptr @s.size, i64 %flag)
  %ctx = call ptr @calloc(i64 1, i64 %sz)
  %ret = getelementptr inbounds i8, ptr %ctx, i64 8
  store ptr @finished, ptr %ret
  %v = getelementptr inbounds i8, ptr %ctx, i64 16
  store i64 20, ptr %v
  call void @counter(ptr %ctx)
  call void @run()
  call void @free(ptr %ctx)
  call i32 (ptr, ...) @printf(ptr @fmt, ptr @s.end, i64 0)
  ret i32 0
}

declare token @llvm.coro.id.async(i32, i32, i32, ptr)
declare ptr @llvm.coro.begin(token, ptr)
declare ptr @llvm.coro.async.resume()
declare { ptr } @llvm.coro.suspend.async(i32, ptr, ptr, ...)
declare i1 @llvm.coro.end.async(ptr, i1, ...)
