; tests/async/overaligned.ll in typed pointers (LLVM 14): allocas aligned to 64 and 128 in a
; context aligned to 16, realigned at run time, checked before and after a suspend.
@fmt = private constant [8 x i8] c"%s %ld\0A\00"
@s.aligned = private constant [8 x i8] c"aligned\00"
@s.inside = private constant [7 x i8] c"inside\00"
@s.same = private constant [5 x i8] c"same\00"
@s.sum = private constant [4 x i8] c"sum\00"
@s.done = private constant [5 x i8] c"done\00"
declare i32 @printf(i8*, ...)
declare i8* @aligned_alloc(i64, i64)
declare void @free(i8*)

@queue.fn = internal global void (i8*)* null
@queue.ctx = internal global i8* null

define void @print(i8* %what, i64 %v) {
  %f = getelementptr [8 x i8], [8 x i8]* @fmt, i32 0, i32 0
  call i32 (i8*, ...) @printf(i8* %f, i8* %what, i64 %v)
  ret void
}

; A suspend's must-tail function: the continuation is parked, and the coroutine returns.
define void @park(i8* %resume, i8* %ctx) {
  %fn = bitcast i8* %resume to void (i8*)*
  store void (i8*)* %fn, void (i8*)** @queue.fn
  store i8* %ctx, i8** @queue.ctx
  ret void
}

define i8* @same.context(i8* %ctx) {
  ret i8* %ctx
}

define void @return.to.caller(i8* %ctx) {
  %slot = getelementptr inbounds i8, i8* %ctx, i64 8
  %slotp = bitcast i8* %slot to void (i8*)**
  %r = load void (i8*)*, void (i8*)** %slotp
  musttail call void %r(i8* %ctx)
  ret void
}

@overaligned_fp = constant <{ i32, i32 }> <{ i32 0, i32 32 }>

; Prints whether `p` is aligned to `align`, and whether its `size` bytes lie inside the context.
define void @check(i8* %ctx, i8* %p, i64 %size, i64 %align) {
  %pi = ptrtoint i8* %p to i64
  %mask = sub i64 %align, 1
  %low = and i64 %pi, %mask
  %isaligned = icmp eq i64 %low, 0
  %a = zext i1 %isaligned to i64
  call void @print(i8* getelementptr ([8 x i8], [8 x i8]* @s.aligned, i32 0, i32 0), i64 %a)
  %szp = getelementptr inbounds <{ i32, i32 }>, <{ i32, i32 }>* @overaligned_fp, i32 0, i32 1
  %sz32 = load i32, i32* %szp
  %sz = zext i32 %sz32 to i64
  %ci = ptrtoint i8* %ctx to i64
  %cend = add i64 %ci, %sz
  %pend = add i64 %pi, %size
  %after = icmp uge i64 %pi, %ci
  %before = icmp ule i64 %pend, %cend
  %in = and i1 %after, %before
  %i = zext i1 %in to i64
  call void @print(i8* getelementptr ([7 x i8], [7 x i8]* @s.inside, i32 0, i32 0), i64 %i)
  ret void
}

define void @overaligned(i8* %ctx) "coroutine.presplit"="0" {
entry:
  %id = call token @llvm.coro.id.async(i32 32, i32 16, i32 0, i8* bitcast (<{ i32, i32 }>* @overaligned_fp to i8*))
  %hdl = call i8* @llvm.coro.begin(token %id, i8* null)
  %a = alloca [4 x i64], align 64
  %b = alloca i64, align 128
  %vslot8 = getelementptr inbounds i8, i8* %ctx, i64 16
  %vslot = bitcast i8* %vslot8 to i64*
  %start = load i64, i64* %vslot
  %a0 = getelementptr inbounds [4 x i64], [4 x i64]* %a, i64 0, i64 0
  store i64 %start, i64* %a0
  %a1 = getelementptr inbounds [4 x i64], [4 x i64]* %a, i64 0, i64 1
  %v1 = add i64 %start, 1
  store i64 %v1, i64* %a1
  %a3 = getelementptr inbounds [4 x i64], [4 x i64]* %a, i64 0, i64 3
  %v3 = add i64 %start, 3
  store i64 %v3, i64* %a3
  %v5 = mul i64 %start, 5
  store i64 %v5, i64* %b
  %ap = bitcast [4 x i64]* %a to i8*
  %bp = bitcast i64* %b to i8*
  call void @check(i8* %ctx, i8* %ap, i64 32, i64 64)
  call void @check(i8* %ctx, i8* %bp, i64 8, i64 128)
  %ai = ptrtoint [4 x i64]* %a to i64
  %seen8 = getelementptr inbounds i8, i8* %ctx, i64 24
  %seen = bitcast i8* %seen8 to i64*
  store i64 %ai, i64* %seen
  %r0 = call i8* @llvm.coro.async.resume()
  %res0 = call { i8* } (i32, i8*, i8*, ...) @llvm.coro.suspend.async(i32 0, i8* %r0, i8* bitcast (i8* (i8*)* @same.context to i8*), i8* bitcast (void (i8*, i8*)* @park to i8*), i8* %r0, i8* %ctx)
  %c0 = extractvalue { i8* } %res0, 0
  %ap2 = bitcast [4 x i64]* %a to i8*
  %bp2 = bitcast i64* %b to i8*
  call void @check(i8* %c0, i8* %ap2, i64 32, i64 64)
  call void @check(i8* %c0, i8* %bp2, i64 8, i64 128)
  %ai2 = ptrtoint [4 x i64]* %a to i64
  %seen28 = getelementptr inbounds i8, i8* %c0, i64 24
  %seen2 = bitcast i8* %seen28 to i64*
  %was = load i64, i64* %seen2
  %same = icmp eq i64 %ai2, %was
  %samei = zext i1 %same to i64
  call void @print(i8* getelementptr ([5 x i8], [5 x i8]* @s.same, i32 0, i32 0), i64 %samei)
  %x0 = load i64, i64* %a0
  %x1 = load i64, i64* %a1
  %x3 = load i64, i64* %a3
  %y = load i64, i64* %b
  %s1 = add i64 %x0, %x1
  %s2 = add i64 %s1, %x3
  %s3 = add i64 %s2, %y
  call void @print(i8* getelementptr ([4 x i8], [4 x i8]* @s.sum, i32 0, i32 0), i64 %s3)
  %out8 = getelementptr inbounds i8, i8* %c0, i64 16
  %out = bitcast i8* %out8 to i64*
  store i64 %s3, i64* %out
  %unused = call i1 (i8*, i1, ...) @llvm.coro.end.async(i8* %hdl, i1 false, void (i8*)* @return.to.caller, i8* %c0)
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
  %szp = getelementptr inbounds <{ i32, i32 }>, <{ i32, i32 }>* @overaligned_fp, i32 0, i32 1
  %sz32 = load i32, i32* %szp
  %sz = zext i32 %sz32 to i64
  ; 16 bytes past a 128-aligned address: aligned to 16, not to 32, 64 or 128.
  %room = add i64 %sz, 128
  %base = call i8* @aligned_alloc(i64 128, i64 %room)
  %ctx = getelementptr inbounds i8, i8* %base, i64 16
  %ret8 = getelementptr inbounds i8, i8* %ctx, i64 8
  %ret = bitcast i8* %ret8 to void (i8*)**
  store void (i8*)* @finished, void (i8*)** %ret
  %v8 = getelementptr inbounds i8, i8* %ctx, i64 16
  %v = bitcast i8* %v8 to i64*
  store i64 10, i64* %v
  call void @overaligned(i8* %ctx)
  %fn = load void (i8*)*, void (i8*)** @queue.fn
  %c = load i8*, i8** @queue.ctx
  call void %fn(i8* %c)
  call void @free(i8* %base)
  ret i32 0
}

declare token @llvm.coro.id.async(i32, i32, i32, i8*)
declare i8* @llvm.coro.begin(token, i8*)
declare i8* @llvm.coro.async.resume()
declare { i8* } @llvm.coro.suspend.async(i32, i8*, i8*, ...)
declare i1 @llvm.coro.end.async(i8*, i1, ...)
