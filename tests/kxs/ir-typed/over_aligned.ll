; Typed twin of tests/kxs/ir/over_aligned.ll: a 64-byte aligned buffer, a 32-byte aligned vector
; local and an <8 x i32> SSA value live across suspends; the frame comes from aligned_alloc.

declare void @__kxs_suspend_point(i32)
declare void @__kxs_begin(i8**, i8**)
declare i32 @printf(i8*, ...)

@.fmt = private constant [36 x i8] c"round %d: mis64=%d mis32=%d sum=%d\0A\00"
@__kxs_coroutine_suspended = global i8 0

define i8* @aligned({ i8*, i8* }* %cont) {
entry:
  %buf = alloca [64 x i8], align 64
  %vec = alloca <8 x float>, align 32
  %label.slot = getelementptr inbounds { i8*, i8* }, { i8*, i8* }* %cont, i32 0, i32 0
  %frame.slot = getelementptr inbounds { i8*, i8* }, { i8*, i8* }* %cont, i32 0, i32 1
  call void @__kxs_begin(i8** %label.slot, i8** %frame.slot)
  store <8 x float> <float 1.0, float 2.0, float 3.0, float 4.0, float 5.0, float 6.0, float 7.0, float 8.0>, <8 x float>* %vec, align 32
  %buf0 = getelementptr inbounds [64 x i8], [64 x i8]* %buf, i32 0, i32 0
  store i8 3, i8* %buf0, align 64
  %ints = insertelement <8 x i32> zeroinitializer, i32 40, i32 7
  br label %loop

loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %acc = phi <8 x i32> [ %ints, %entry ], [ %acc1, %loop ]
  call void @__kxs_suspend_point(i32 1)
  %b = ptrtoint [64 x i8]* %buf to i64
  %m64 = urem i64 %b, 64
  %v = ptrtoint <8 x float>* %vec to i64
  %m32 = urem i64 %v, 32
  %f = load <8 x float>, <8 x float>* %vec, align 32
  %f7 = extractelement <8 x float> %f, i32 7
  %fi = fptosi float %f7 to i32
  %c = load i8, i8* %buf0, align 64
  %ci = zext i8 %c to i32
  %a7 = extractelement <8 x i32> %acc, i32 7
  %s0 = add i32 %fi, %ci
  %sum = add i32 %s0, %a7
  %m64i = trunc i64 %m64 to i32
  %m32i = trunc i64 %m32 to i32
  %fmt = getelementptr inbounds [36 x i8], [36 x i8]* @.fmt, i32 0, i32 0
  call i32 (i8*, ...) @printf(i8* %fmt, i32 %i, i32 %m64i, i32 %m32i, i32 %sum)
  %acc1 = add <8 x i32> %acc, <i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1>
  %i1 = add i32 %i, 1
  %more = icmp slt i32 %i1, 3
  br i1 %more, label %loop, label %done

done:
  ret i8* null
}

define i32 @main() {
  %1 = alloca { i8*, i8* }, align 8
  store { i8*, i8* } zeroinitializer, { i8*, i8* }* %1, align 8
  br label %2

2:
  %3 = call i8* @aligned({ i8*, i8* }* %1)
  %4 = icmp eq i8* %3, @__kxs_coroutine_suspended
  br i1 %4, label %2, label %5

5:
  ret i32 0
}

; EXPECT:
; round 0: mis64=0 mis32=0 sum=51
; round 1: mis64=0 mis32=0 sum=52
; round 2: mis64=0 mis32=0 sum=53
