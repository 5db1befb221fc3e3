; tests/async/yield.ll in typed pointers (LLVM 14): an async coroutine that suspends twice
; through a small run queue, with values live across both suspends, and returns to its caller's
; continuation through coro.end.async's must-tail function. Context header (32 bytes): +0 the
; caller's context, +8 the function to return to, +16 a value slot. As LLVM 14's producers wrote
; it, the coroutine's context parameter has a type of its own and the second suspend names its
; context projection through a bitcast instruction.
%context = type { i8*, i8*, i64, i64 }
@fmt = private constant [8 x i8] c"%s %ld\0A\00"
@s.start = private constant [6 x i8] c"start\00"
@s.step = private constant [5 x i8] c"step\00"
@s.done = private constant [5 x i8] c"done\00"
@s.size = private constant [12 x i8] c"size>header\00"
@s.end = private constant [4 x i8] c"end\00"
declare i32 @printf(i8*, ...)
declare i8* @calloc(i64, i64)
declare void @free(i8*)

define void @print(i8* %what, i64 %v) {
  %f = getelementptr [8 x i8], [8 x i8]* @fmt, i32 0, i32 0
  call i32 (i8*, ...) @printf(i8* %f, i8* %what, i64 %v)
  ret void
}

; The run queue: (function, context) pairs, run in order.
@queue.fn = internal global [16 x i8*] zeroinitializer
@queue.ctx = internal global [16 x i8*] zeroinitializer
@queue.head = internal global i64 0
@queue.tail = internal global i64 0

define void @schedule(i8* %fn, i8* %ctx) {
  %t = load i64, i64* @queue.tail
  %f = getelementptr [16 x i8*], [16 x i8*]* @queue.fn, i64 0, i64 %t
  store i8* %fn, i8** %f
  %c = getelementptr [16 x i8*], [16 x i8*]* @queue.ctx, i64 0, i64 %t
  store i8* %ctx, i8** %c
  %t1 = add i64 %t, 1
  store i64 %t1, i64* @queue.tail
  ret void
}

define void @run() {
entry:
  br label %loop
loop:
  %h = load i64, i64* @queue.head
  %t = load i64, i64* @queue.tail
  %more = icmp ult i64 %h, %t
  br i1 %more, label %body, label %out
body:
  %f = getelementptr [16 x i8*], [16 x i8*]* @queue.fn, i64 0, i64 %h
  %fn8 = load i8*, i8** %f
  %fn = bitcast i8* %fn8 to void (i8*)*
  %c = getelementptr [16 x i8*], [16 x i8*]* @queue.ctx, i64 0, i64 %h
  %ctx = load i8*, i8** %c
  %h1 = add i64 %h, 1
  store i64 %h1, i64* @queue.head
  call void %fn(i8* %ctx)
  br label %loop
out:
  ret void
}

; A suspend's must-tail function: the continuation goes on the queue, and the coroutine returns.
define void @yield.apply(i8* %resume, i8* %ctx) {
  call void @schedule(i8* %resume, i8* %ctx)
  ret void
}

; The continuation is called with this coroutine's own context.
define i8* @same.context(i8* %ctx) {
  ret i8* %ctx
}

; Return to the caller: the function at +8 of the context, with the context.
define void @return.to.caller(i8* %ctx) {
  %slot8 = getelementptr inbounds i8, i8* %ctx, i64 8
  %slot = bitcast i8* %slot8 to void (i8*)**
  %r = load void (i8*)*, void (i8*)** %slot
  musttail call void %r(i8* %ctx)
  ret void
}

@counter_fp = constant <{ i32, i32 }> <{ i32 0, i32 32 }>

define void @counter(%context* %cx) "coroutine.presplit"="0" {
entry:
  %ctx = bitcast %context* %cx to i8*
  %id = call token @llvm.coro.id.async(i32 32, i32 16, i32 0, i8* bitcast (<{ i32, i32 }>* @counter_fp to i8*))
  %hdl = call i8* @llvm.coro.begin(token %id, i8* null)
  %vslot8 = getelementptr inbounds i8, i8* %ctx, i64 16
  %vslot = bitcast i8* %vslot8 to i64*
  %start = load i64, i64* %vslot
  call void @print(i8* getelementptr ([6 x i8], [6 x i8]* @s.start, i32 0, i32 0), i64 %start)
  %twice = mul i64 %start, 2
  %r0 = call i8* @llvm.coro.async.resume()
  %res0 = call { i8* } (i32, i8*, i8*, ...) @llvm.coro.suspend.async(i32 0, i8* %r0, i8* bitcast (i8* (i8*)* @same.context to i8*), i8* bitcast (void (i8*, i8*)* @yield.apply to i8*), i8* %r0, i8* %ctx)
  %c0 = extractvalue { i8* } %res0, 0
  %a = add i64 %twice, 1
  call void @print(i8* getelementptr ([5 x i8], [5 x i8]* @s.step, i32 0, i32 0), i64 %a)
  %r1 = call i8* @llvm.coro.async.resume()
  %proj = bitcast i8* (i8*)* @same.context to i8*
  %res1 = call { i8* } (i32, i8*, i8*, ...) @llvm.coro.suspend.async(i32 0, i8* %r1, i8* %proj, i8* bitcast (void (i8*, i8*)* @yield.apply to i8*), i8* %r1, i8* %c0)
  %c1 = extractvalue { i8* } %res1, 0
  %b = add i64 %a, %start
  call void @print(i8* getelementptr ([5 x i8], [5 x i8]* @s.step, i32 0, i32 0), i64 %b)
  %out8 = getelementptr inbounds i8, i8* %c1, i64 16
  %out = bitcast i8* %out8 to i64*
  store i64 %b, i64* %out
  %unused = call i1 (i8*, i1, ...) @llvm.coro.end.async(i8* %hdl, i1 false, void (i8*)* @return.to.caller, i8* %c1)
  unreachable
}

define void @finished(i8* %ctx) {
  %vslot8 = getelementptr inbounds i8, i8* %ctx, i64 16
  %vslot = bitcast i8* %vslot8 to i64*
  %v = load i64, i64* %vslot
  call void @print(i8* getelementptr ([5 x i8], [5 x i8]* @s.done, i32 0, i32 0), i64 %v)
  ret void
}

define i32 @main() {
  ; The context is as large as the async function pointer says, once the frame is laid out.
  %szp = getelementptr inbounds <{ i32, i32 }>, <{ i32, i32 }>* @counter_fp, i32 0, i32 1
  %sz32 = load i32, i32* %szp
  %sz = zext i32 %sz32 to i64
  %bigger = icmp ugt i64 %sz, 32
  %flag = zext i1 %bigger to i64
  call void @print(i8* getelementptr ([12 x i8], [12 x i8]* @s.size, i32 0, i32 0), i64 %flag)
  %ctx = call i8* @calloc(i64 1, i64 %sz)
  %ret8 = getelementptr inbounds i8, i8* %ctx, i64 8
  %ret = bitcast i8* %ret8 to void (i8*)**
  store void (i8*)* @finished, void (i8*)** %ret
  %v8 = getelementptr inbounds i8, i8* %ctx, i64 16
  %v = bitcast i8* %v8 to i64*
  store i64 20, i64* %v
  %cx = bitcast i8* %ctx to %context*
  call void @counter(%context* %cx)
  call void @run()
  call void @free(i8* %ctx)
  call void @print(i8* getelementptr ([4 x i8], [4 x i8]* @s.end, i32 0, i32 0), i64 0)
  ret i32 0
}

declare token @llvm.coro.id.async(i32, i32, i32, i8*)
declare i8* @llvm.coro.begin(token, i8*)
declare i8* @llvm.coro.async.resume()
declare { i8* } @llvm.coro.suspend.async(i32, i8*, i8*, ...)
declare i1 @llvm.coro.end.async(i8*, i1, ...)
