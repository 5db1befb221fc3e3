; An async coroutine that calls another: the caller allocates the callee's context with the size
; the callee's async function pointer gives (written by the lowering), stores its own context and
; continuation there, and suspends by calling the callee through the suspend's must-tail
; function; the callee suspends once through the run queue and returns through coro.end.async.
; The caller's continuation finds its own context from the callee's (the projection loads +0).
; A second function pointer takes the callee's size through coro.async.size.replace.
; Context header (32 bytes): +0 the caller's context, +8 the function to return to, +16 a value.
@fmt = private constant [8 x i8] c"%s %ld\0A\00"
@s.callee = private constant [7 x i8] c"callee\00"
@s.caller = private constant [7 x i8] c"caller\00"
@s.back = private constant [5 x i8] c"back\00"
@s.done = private constant [5 x i8] c"done\00"
@s.size = private constant [12 x i8] c"size>header\00"
@s.replaced = private constant [9 x i8] c"replaced\00"
declare i32 @printf(ptr, ...)
declare ptr @calloc(i64, i64)
declare void @free(ptr)

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

define void @yield.apply(ptr %resume, ptr %ctx) {
  call void @schedule(ptr %resume, ptr %ctx)
  ret void
}

; Calls an async function with a context; with control flow, as a dispatch function may have.
define void @call.apply(ptr %fn, ptr %ctx) {
entry:
  %none = icmp eq ptr %ctx, null
  br i1 %none, label %skip, label %go
skip:
  ret void
go:
  call void %fn(ptr %ctx)
  ret void
}

define ptr @same.context(ptr %ctx) {
  ret ptr %ctx
}

define ptr @caller.context(ptr %ctx) {
  %parent = load ptr, ptr %ctx
  ret ptr %parent
}

define void @return.to.caller(ptr %ctx) {
  %slot = getelementptr inbounds i8, ptr %ctx, i64 8
  %r = load ptr, ptr %slot
  musttail call void %r(ptr %ctx)
  ret void
}

@callee_fp = constant <{ i32, i32 }> <{ i32 0, i32 32 }>
@callee_alias_fp = constant <{ i32, i32 }> <{ i32 0, i32 8 }>
@caller_fp = constant <{ i32, i32 }> <{ i32 0, i32 32 }>

; Doubles its argument after one trip through the run queue.
define void @callee(ptr %ctx) presplitcoroutine {
entry:
  %id = call token @llvm.coro.id.async(i32 32, i32 16, i32 0, ptr @callee_fp)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr null)
  %vslot = getelementptr inbounds i8, ptr %ctx, i64 16
  %x = load i64, ptr %vslot
  call i32 (ptr, ...) @printf(ptr @fmt, ptr @s.callee, i64 %x)
  %r = call ptr @llvm.coro.async.resume()
  %res = call { ptr } (i32, ptr, ptr, ...) @llvm.coro.suspend.async(i32 0, ptr %r, ptr @same.context, ptr @yield.apply, ptr %r, ptr %ctx)
  %c = extractvalue { ptr } %res, 0
  %y = mul i64 %x, 2
  %out = getelementptr inbounds i8, ptr %c, i64 16
  store i64 %y, ptr %out
  call i1 (ptr, i1, ...) @llvm.coro.end.async(ptr %hdl, i1 false, ptr @return.to.caller, ptr %c)
  unreachable
}

; Calls @callee twice in a loop, keeping a running sum and its own context in the frame.
define void @caller(ptr %ctx) presplitcoroutine {
entry:
  %id = call token @llvm.coro.id.async(i32 32, i32 16, i32 0, ptr @caller_fp)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr null)
  %vslot = getelementptr inbounds i8, ptr %ctx, i64 16
  %base = load i64, ptr %vslot
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %back ]
  %sum = phi i64 [ %base, %entry ], [ %sum1, %back ]
  %szp = getelementptr inbounds <{ i32, i32 }>, ptr @callee_fp, i32 0, i32 1
  %sz32 = load i32, ptr %szp
  %sz = zext i32 %sz32 to i64
  %cctx = call ptr @calloc(i64 1, i64 %sz)
  store ptr %ctx, ptr %cctx
  %arg = getelementptr inbounds i8, ptr %cctx, i64 16
  %x = add i64 %sum, %i
  store i64 %x, ptr %arg
  %r = call ptr @llvm.coro.async.resume()
  %retslot = getelementptr inbounds i8, ptr %cctx, i64 8
  store ptr %r, ptr %retslot
  call i32 (ptr, ...) @printf(ptr @fmt, ptr @s.caller, i64 %x)
  %res = call { ptr } (i32, ptr, ptr, ...) @llvm.coro.suspend.async(i32 0, ptr %r, ptr @caller.context, ptr @call.apply, ptr @callee, ptr %cctx)
  br label %back

back:
  %done.ctx = extractvalue { ptr } %res, 0
  %rv = getelementptr inbounds i8, ptr %done.ctx, i64 16
  %y = load i64, ptr %rv
  call void @free(ptr %done.ctx)
  %sum1 = add i64 %sum, %y
  call i32 (ptr, ...) @printf(ptr @fmt, ptr @s.back, i64 %sum1)
  %i1 = add i64 %i, 1
  %again = icmp ult i64 %i1, 2
  br i1 %again, label %loop, label %end

end:
  %out = getelementptr inbounds i8, ptr %ctx, i64 16
  store i64 %sum1, ptr %out
  call i1 (ptr, i1, ...) @llvm.coro.end.async(ptr %hdl, i1 false, ptr @return.to.caller, ptr %ctx)
  unreachable
}

define void @finished(ptr %ctx) {
  %vslot = getelementptr inbounds i8, ptr %ctx, i64 16
  %v = load i64, ptr %vslot
  call i32 (ptr, ...) @printf(ptr @fmt, ptr @s.done, i64 %v)
  ret void
}

define i32 @main() {
  %szp = getelementptr inbounds <{ i32, i32 }>, ptr @caller_fp, i32 0, i32 1
  %sz32 = load i32, ptr %szp
  %sz = zext i32 %sz32 to i64
  %bigger = icmp ugt i64 %sz, 32
  %flag = zext i1 %bigger to i64
  call i32 (ptr, ...) @printf(ptr @fmt, ptr @s.size, i64 %flag)
  ; The alias takes the callee's context size.
  call void @llvm.coro.async.size.replace(ptr @callee_alias_fp, ptr @callee_fp)
  %ap = getelementptr inbounds <{ i32, i32 }>, ptr @callee_alias_fp, i32 0, i32 1
  %asz = load i32, ptr %ap
  %cp = getelementptr inbounds <{ i32, i32 }>, ptr @callee_fp, i32 0, i32 1
  %csz = load i32, ptr %cp
  %same = icmp eq i32 %asz, %csz
  %same64 = zext i1 %same to i64
  call i32 (ptr, ...) @printf(ptr @fmt, ptr @s.replaced, i64 %same64)
  %ctx = call ptr @calloc(i64 1, i64 %sz)
  %ret = getelementptr inbounds i8, ptr %ctx, i64 8
  store ptr @finished, ptr %ret
  %v = getelementptr inbounds i8, ptr %ctx, i64 16
  store i64 5, ptr %v
  call void @caller(ptr %ctx)
  call void @run()
  call void @free(ptr %ctx)
  ret i32 0
}

declare token @llvm.coro.id.async(i32, i32, i32, ptr)
declare ptr @llvm.coro.begin(token, ptr)
declare ptr @llvm.coro.async.resume()
declare { ptr } @llvm.coro.suspend.async(i32, ptr, ptr, ...)
declare i1 @llvm.coro.end.async(ptr, i1, ...)
declare void @llvm.coro.async.size.replace(ptr, ptr)
