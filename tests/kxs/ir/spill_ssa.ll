; Markers-only IR from a front end that keeps state in SSA values: %sum and %i are live across the
; suspend in a loop, and %p (a pointer into a local array that is written before and read after
; suspends) makes the array live across too. The function names its slots with __kxs_begin; the
; continuation is { label, frame }. Values made before __kxs_begin (%frame.slot) are made again on
; each entry. A non-suspend function comes first in the module and must pass through untouched:
; the seed's transform took the blockaddress function from the first `define` and put a dispatch
; into every function.

declare void @__kxs_suspend_point(i32)
declare void @__kxs_begin(ptr, ptr)
declare i32 @printf(ptr, ...)

@.fmt = private constant [18 x i8] c"i=%d sum=%d a=%d\0A\00"
@__kxs_coroutine_suspended = global i8 0

define i32 @helper(i32 %x) {
  %1 = mul i32 %x, 3
  ret i32 %1
}

define ptr @sum_to(ptr %cont, i32 %n) {
entry:
  %arr = alloca [4 x i32], align 4
  %frame.slot = getelementptr inbounds { ptr, ptr }, ptr %cont, i32 0, i32 1
  call void @__kxs_begin(ptr %cont, ptr %frame.slot)
  %p = getelementptr inbounds [4 x i32], ptr %arr, i32 0, i32 2
  store i32 5, ptr %p, align 4
  br label %loop

loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %sum = phi i32 [ 0, %entry ], [ %sum1, %loop ]
  %h = call i32 @helper(i32 %i)
  %sum1 = add i32 %sum, %h
  call void @__kxs_suspend_point(i32 9000)
  %a = load i32, ptr %p, align 4
  %a1 = add i32 %a, 1
  store i32 %a1, ptr %p, align 4
  call i32 (ptr, ...) @printf(ptr @.fmt, i32 %i, i32 %sum1, i32 %a1)
  %i1 = add i32 %i, 1
  %more = icmp slt i32 %i1, %n
  br i1 %more, label %loop, label %done

done:
  ret ptr null
}

define i32 @main() {
  %1 = alloca { ptr, ptr }, align 8
  store { ptr, ptr } zeroinitializer, ptr %1, align 8
  br label %2

2:
  %3 = phi i32 [ 0, %0 ], [ %5, %2 ]
  %4 = call ptr @sum_to(ptr %1, i32 4)
  %5 = add i32 %3, 1
  %6 = icmp eq ptr %4, @__kxs_coroutine_suspended
  br i1 %6, label %2, label %7

7:
  %8 = getelementptr inbounds { ptr, ptr }, ptr %1, i32 0, i32 1
  %9 = load ptr, ptr %8, align 8
  %10 = load ptr, ptr %1, align 8
  %11 = icmp eq ptr %9, null
  %12 = icmp eq ptr %10, null
  %13 = and i1 %11, %12
  %14 = zext i1 %13 to i32
  %15 = sub i32 1, %14
  ret i32 %15
}

; EXPECT:
; i=0 sum=0 a=6
; i=1 sum=3 a=7
; i=2 sum=9 a=8
; i=3 sum=18 a=9
