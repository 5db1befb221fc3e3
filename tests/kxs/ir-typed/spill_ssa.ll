; Typed twin of tests/kxs/ir/spill_ssa.ll: SSA values and an array live across a suspend, kept in
; the spill frame named by __kxs_begin.

declare void @__kxs_suspend_point(i32)
declare void @__kxs_begin(i8**, i8**)
declare i32 @printf(i8*, ...)

@.fmt = private constant [18 x i8] c"i=%d sum=%d a=%d\0A\00"
@__kxs_coroutine_suspended = global i8 0

define i32 @helper(i32 %x) {
  %1 = mul i32 %x, 3
  ret i32 %1
}

define i8* @sum_to({ i8*, i8* }* %cont, i32 %n) {
entry:
  %arr = alloca [4 x i32], align 4
  %label.slot = getelementptr inbounds { i8*, i8* }, { i8*, i8* }* %cont, i32 0, i32 0
  %frame.slot = getelementptr inbounds { i8*, i8* }, { i8*, i8* }* %cont, i32 0, i32 1
  call void @__kxs_begin(i8** %label.slot, i8** %frame.slot)
  %p = getelementptr inbounds [4 x i32], [4 x i32]* %arr, i32 0, i32 2
  store i32 5, i32* %p, align 4
  br label %loop

loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %sum = phi i32 [ 0, %entry ], [ %sum1, %loop ]
  %h = call i32 @helper(i32 %i)
  %sum1 = add i32 %sum, %h
  call void @__kxs_suspend_point(i32 9000)
  %a = load i32, i32* %p, align 4
  %a1 = add i32 %a, 1
  store i32 %a1, i32* %p, align 4
  %f = getelementptr [18 x i8], [18 x i8]* @.fmt, i64 0, i64 0
  call i32 (i8*, ...) @printf(i8* %f, i32 %i, i32 %sum1, i32 %a1)
  %i1 = add i32 %i, 1
  %more = icmp slt i32 %i1, %n
  br i1 %more, label %loop, label %done

done:
  ret i8* null
}

define i32 @main() {
  %1 = alloca { i8*, i8* }, align 8
  store { i8*, i8* } zeroinitializer, { i8*, i8* }* %1, align 8
  br label %2

2:
  %3 = call i8* @sum_to({ i8*, i8* }* %1, i32 4)
  %4 = icmp eq i8* %3, @__kxs_coroutine_suspended
  br i1 %4, label %2, label %5

5:
  %6 = getelementptr inbounds { i8*, i8* }, { i8*, i8* }* %1, i32 0, i32 1
  %7 = load i8*, i8** %6, align 8
  %8 = icmp eq i8* %7, null
  %9 = zext i1 %8 to i32
  %10 = sub i32 1, %9
  ret i32 %10
}

; EXPECT:
; i=0 sum=0 a=6
; i=1 sum=3 a=7
; i=2 sum=9 a=8
; i=3 sum=18 a=9
