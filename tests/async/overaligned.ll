; An async coroutine with allocas aligned beyond its context (64 and 128, the context only 16)
; that live across a suspend: the frame gives each a field larger by the alignment it lacks and
; the address is rounded up at run time, as LLVM's CoroFrame does. The driver places the context
; 16 bytes past a 128-aligned address, so only that rounding makes the addresses aligned. Each
; address is checked (aligned, inside the context the function pointer's size describes) before
; and after the suspend, the same after it as before, and the values stored through them before
; the suspend are read after it. Context header (32 bytes): +8 the function to return to, +16 a
; value slot, +24 the first alloca's address as the ramp saw it.
@fmt = private constant [8 x i8] c"%s %ld\0A\00"
@s.aligned = private constant [8 x i8] c"aligned\00"
@s.inside = private constant [7 x i8] c"inside\00"
@s.same = private constant [5 x i8] c"same\00"
@s.sum = private constant [4 x i8] c"sum\00"
@s.done = private constant [5 x i8] c"done\00"
declare i32 @printf(ptr, ...)
declare ptr @aligned_alloc(i64, i64)
declare void @free(ptr)

@queue.fn = internal global ptr null
@queue.ctx = internal global ptr null

; A suspend's must-tail function: the continuation is parked, and the coroutine returns.
define void @park(ptr %resume, ptr %ctx) {
  store ptr %resume, ptr @queue.fn
  store ptr %ctx, ptr @queue.ctx
  ret void
}

define ptr @same.context(ptr %ctx) {
  ret ptr %ctx
}

define void @return.to.caller(ptr %ctx) {
  %slot = getelementptr inbounds i8, ptr %ctx, i64 8
  %r = load ptr, ptr %slot
  musttail call void %r(ptr %ctx)
  ret void
}

@overaligned_fp = constant <{ i32, i32 }> <{ i32 0, i32 32 }>

; Prints whether `p` is aligned to `align`, and whether its `size` bytes lie inside the context.
define void @check(ptr %ctx, ptr %p, i64 %size, i64 %align) {
  %pi = ptrtoint ptr %p to i64
  %mask = sub i64 %align, 1
  %low = and i64 %pi, %mask
  %isaligned = icmp eq i64 %low, 0
  %a = zext i1 %isaligned to i64
  call i32 (ptr, ...) @printf(ptr @fmt, ptr @s.aligned, i64 %a)
  %szp = getelementptr inbounds <{ i32, i32 }>, ptr @overaligned_fp, i32 0, i32 1
  %sz32 = load i32, ptr %szp
  %sz = zext i32 %sz32 to i64
  %ci = ptrtoint ptr %ctx to i64
  %cend = add i64 %ci, %sz
  %pend = add i64 %pi, %size
  %after = icmp uge i64 %pi, %ci
  %before = icmp ule i64 %pend, %cend
  %in = and i1 %after, %before
  %i = zext i1 %in to i64
  call i32 (ptr, ...) @printf(ptr @fmt, ptr @s.inside, i64 %i)
  ret void
}

define void @overaligned(ptr %ctx) presplitcoroutine {
entry:
  %id = call token @llvm.coro.id.async(i32 32, i32 16, i32 0, ptr @overaligned_fp)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr null)
  %a = alloca [4 x i64], align 64
  %b = alloca i64, align 128
  %vslot = getelementptr inbounds i8, ptr %ctx, i64 16
  %start = load i64, ptr %vslot
  store i64 %start, ptr %a
  %a1 = getelementptr inbounds i64, ptr %a, i64 1
  %v1 = add i64 %start, 1
  store i64 %v1, ptr %a1
  %a3 = getelementptr inbounds i64, ptr %a, i64 3
  %v3 = add i64 %start, 3
  store i64 %v3, ptr %a3
  %v5 = mul i64 %start, 5
  store i64 %v5, ptr %b
  call void @check(ptr %ctx, ptr %a, i64 32, i64 64)
  call void @check(ptr %ctx, ptr %b, i64 8, i64 128)
  %ai = ptrtoint ptr %a to i64
  %seen = getelementptr inbounds i8, ptr %ctx, i64 24
  store i64 %ai, ptr %seen
  %r0 = call ptr @llvm.coro.async.resume()
  %res0 = call { ptr } (i32, ptr, ptr, ...) @llvm.coro.suspend.async(i32 0, ptr %r0, ptr @same.context, ptr @park, ptr %r0, ptr %ctx)
  %c0 = extractvalue { ptr } %res0, 0
  call void @check(ptr %c0, ptr %a, i64 32, i64 64)
  call void @check(ptr %c0, ptr %b, i64 8, i64 128)
  %ai2 = ptrtoint ptr %a to i64
  %seen2 = getelementptr inbounds i8, ptr %c0, i64 24
  %was = load i64, ptr %seen2
  %same = icmp eq i64 %ai2, %was
  %samei = zext i1 %same to i64
  call i32 (ptr, ...) @printf(ptr @fmt, ptr @s.same, i64 %samei)
  %x0 = load i64, ptr %a
  %x1 = load i64, ptr %a1
  %x3 = load i64, ptr %a3
  %y = load i64, ptr %b
  %s1 = add i64 %x0, %x1
  %s2 = add i64 %s1, %x3
  %s3 = add i64 %s2, %y
  call i32 (ptr, ...) @printf(ptr @fmt, ptr @s.sum, i64 %s3)
  %out = getelementptr inbounds i8, ptr %c0, i64 16
  store i64 %s3, ptr %out
  call i1 (ptr, i1, ...) @llvm.coro.end.async(ptr %hdl, i1 false, ptr @return.to.caller, ptr %c0)
  unreachable
}

define void @finished(ptr %ctx) {
  %vslot = getelementptr inbounds i8, ptr %ctx, i64 16
  %v = load i64, ptr %vslot
  call i32 (ptr, ...) @printf(ptr @fmt, ptr @s.done, i64 %v)
  ret void
}

define i32 @main() {
  %szp = getelementptr inbounds <{ i32, i32 }>, ptr @overaligned_fp, i32 0, i32 1
  %sz32 = load i32, ptr %szp
  %sz = zext i32 %sz32 to i64
  ; 16 bytes past a 128-aligned address: aligned to 16, not to 32, 64 or 128.
  %room = add i64 %sz, 128
  %base = call ptr @aligned_alloc(i64 128, i64 %room)
  %ctx = getelementptr inbounds i8, ptr %base, i64 16
  %ret = getelementptr inbounds i8, ptr %ctx, i64 8
  store ptr @finished, ptr %ret
  %v = getelementptr inbounds i8, ptr %ctx, i64 16
  store i64 10, ptr %v
  call void @overaligned(ptr %ctx)
  %fn = load ptr, ptr @queue.fn
  %c = load ptr, ptr @queue.ctx
  call void %fn(ptr %c)
  call void @free(ptr %base)
  ret i32 0
}

declare token @llvm.coro.id.async(i32, i32, i32, ptr)
declare ptr @llvm.coro.begin(token, ptr)
declare ptr @llvm.coro.async.resume()
declare { ptr } @llvm.coro.suspend.async(i32, ptr, ptr, ...)
declare i1 @llvm.coro.end.async(ptr, i1, ...)
