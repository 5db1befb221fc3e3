; A spill frame aligned beyond what malloc guarantees (16 bytes on x86-64): a 64-byte aligned
; buffer and a 32-byte aligned vector local live across suspends, and an <8 x i32> SSA value
; spilled across one. The frame must come from aligned_alloc(64, size) (freed by free), so every
; address printed after a resume is a multiple of its alignment and the values survive. lli runs
; the program; `llcoro frames` reports align 64 and the lowered code asks aligned_alloc for it.

declare void @__kxs_suspend_point(i32)
declare void @__kxs_begin(ptr, ptr)
declare i32 @printf(ptr, ...)

@.fmt = private constant [36 x i8] c"round %d: mis64=%d mis32=%d sum=%d\0A\00"
@__kxs_coroutine_suspended = global i8 0

define ptr @aligned(ptr %cont) {
entry:
  %buf = alloca [64 x i8], align 64
  %vec = alloca <8 x float>, align 32
  %frame.slot = getelementptr inbounds { ptr, ptr }, ptr %cont, i32 0, i32 1
  call void @__kxs_begin(ptr %cont, ptr %frame.slot)
  store <8 x float> <float 1.0, float 2.0, float 3.0, float 4.0, float 5.0, float 6.0, float 7.0, float 8.0>, ptr %vec, align 32
  store i8 3, ptr %buf, align 64
  %ints = insertelement <8 x i32> zeroinitializer, i32 40, i32 7
  br label %loop

loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %acc = phi <8 x i32> [ %ints, %entry ], [ %acc1, %loop ]
  call void @__kxs_suspend_point(i32 1)
  %b = ptrtoint ptr %buf to i64
  %m64 = urem i64 %b, 64
  %v = ptrtoint ptr %vec to i64
  %m32 = urem i64 %v, 32
  %f = load <8 x float>, ptr %vec, align 32
  %f7 = extractelement <8 x float> %f, i32 7
  %fi = fptosi float %f7 to i32
  %c = load i8, ptr %buf, align 64
  %ci = zext i8 %c to i32
  %a7 = extractelement <8 x i32> %acc, i32 7
  %s0 = add i32 %fi, %ci
  %sum = add i32 %s0, %a7
  %m64i = trunc i64 %m64 to i32
  %m32i = trunc i64 %m32 to i32
  call i32 (ptr, ...) @printf(ptr @.fmt, i32 %i, i32 %m64i, i32 %m32i, i32 %sum)
  %acc1 = add <8 x i32> %acc, <i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1>
  %i1 = add i32 %i, 1
  %more = icmp slt i32 %i1, 3
  br i1 %more, label %loop, label %done

done:
  ret ptr null
}

define i32 @main() {
  %1 = alloca { ptr, ptr }, align 8
  store { ptr, ptr } zeroinitializer, ptr %1, align 8
  br label %2

2:
  %3 = call ptr @aligned(ptr %1)
  %4 = icmp eq ptr %3, @__kxs_coroutine_suspended
  br i1 %4, label %2, label %5

5:
  ret i32 0
}

; EXPECT:
; round 0: mis64=0 mis32=0 sum=51
; round 1: mis64=0 mis32=0 sum=52
; round 2: mis64=0 mis32=0 sum=53
