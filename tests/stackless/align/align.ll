; Spills that need more alignment than the spill area's offset has (issue 24): the front end keeps
; the spill area at 40, 8-aligned like all its slots, and a <4 x i32>, an <8 x float>, an i128 and
; an x86_fp80 are live across the call. llcoro places each at an offset from the frame pointer
; (16-aligned) that is a multiple of its alignment, up to 16, after padding: a <4 x i32> stored
; `align 16` at sp+40 crashed at -O0 and -O2. spillsz() counts the padding.
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

declare token @llvm.gc.frame.layout(ptr, i32, i32)
declare token @llvm.frame.layout(ptr, i32)
declare i32 @llvm.gc.frame.spillsz()
declare void @llvm.gc.frame.save(token, ...)
declare token @llvm.gc.frame.statepoint(...)
declare token @llvm.gc.frame.accessor(token)
declare ptr @llvm.frame.sp(token)
declare ptr @llvm.gc.frame.load.p0(token, i32)
declare i64 @llvm.gc.frame.result.i64(token)
declare { ptr, i64 } @llvm.frame.return.i64(token, i64)
declare ptr @frame_alloc(i64)
declare { ptr, i64 } @scramble(ptr, i64)

; Returns a checksum of what was live across the call to @scramble (which overwrites the stack).
; The values come from %in, laid out as main.c's `struct in` (0: v, 32: w, 64: q, 80: e).
define { ptr, i64 } @keep(ptr %caller, ptr %in, i64 %n) {
entry:
  %v = load <4 x i32>, ptr %in, align 1
  %wp = getelementptr inbounds i8, ptr %in, i64 32
  %w = load <8 x float>, ptr %wp, align 1
  %qp = getelementptr inbounds i8, ptr %in, i64 64
  %q = load i128, ptr %qp, align 1
  %ep = getelementptr inbounds i8, ptr %in, i64 80
  %e = load x86_fp80, ptr %ep, align 1
  %spill = call i32 @llvm.gc.frame.spillsz()
  %sz32 = add i32 %spill, 40
  %sz = zext i32 %sz32 to i64
  %sp = call ptr @frame_alloc(i64 %sz)
  %lay = call token @llvm.gc.frame.layout(ptr %sp, i32 8, i32 40)
  call void (token, ...) @llvm.gc.frame.save(token %lay, ptr %caller, i32 0)
  %v2 = mul <4 x i32> %v, <i32 3, i32 5, i32 7, i32 11>
  %w2 = fadd <8 x float> %w, <float 0.5, float 1.5, float 2.5, float 3.5, float 4.5, float 5.5, float 6.5, float 7.5>
  %q2 = mul i128 %q, 1000000007
  %e2 = fmul x86_fp80 %e, 0xK4000C000000000000000
  %t = call token (...) @llvm.gc.frame.statepoint(ptr @scramble, i64 %n, token %lay)
  %r = call i64 @llvm.gc.frame.result.i64(token %t)
  %a = call token @llvm.gc.frame.accessor(token %t)
  %back = call ptr @llvm.gc.frame.load.p0(token %a, i32 0)
  %vs = call i32 @llvm.vector.reduce.add.v4i32(<4 x i32> %v2)
  %ws = call float @llvm.vector.reduce.fadd.v8f32(float 0.0, <8 x float> %w2)
  %wi = fptosi float %ws to i64
  %qh = lshr i128 %q2, 64
  %qx = xor i128 %q2, %qh
  %qt = trunc i128 %qx to i64
  %ei = fptosi x86_fp80 %e2 to i64
  %vz = sext i32 %vs to i64
  %s1 = add i64 %vz, %wi
  %s2 = xor i64 %s1, %qt
  %s3 = add i64 %s2, %ei
  %s4 = add i64 %s3, %r
  %rl = call token @llvm.frame.layout(ptr %back, i32 8)
  %ret = call { ptr, i64 } @llvm.frame.return.i64(token %rl, i64 %s4)
  ret { ptr, i64 } %ret
}

declare i32 @llvm.vector.reduce.add.v4i32(<4 x i32>)
declare float @llvm.vector.reduce.fadd.v8f32(float, <8 x float>)
