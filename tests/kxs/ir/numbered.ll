; Unnamed, numbered values and blocks in a suspend function without __kxs_begin: llcoro inserts its
; entry block and renumbers, where the seed's text transform inserted `kxs.entry` in front of %0 and
; broke the numbering. The label slot is the first parameter; the only thing used after the
; suspend is the second parameter, which every call passes again. The suspending call (@step) runs
; once per suspend: resuming continues after the marker, it does not call @step again.

declare void @__kxs_suspend_point(i32)
declare i32 @printf(ptr, ...)

@.fmt = private constant [10 x i8] c"%d %d %d\0A\00"
@calls = global i32 0
@__kxs_coroutine_suspended = global i8 0

define i32 @step() {
  %1 = load i32, ptr @calls
  %2 = add i32 %1, 1
  store i32 %2, ptr @calls
  ret i32 %2
}

define ptr @g(ptr %0, ptr %1) {
  %3 = call i32 @step()
  %4 = load i32, ptr %1
  %5 = icmp sgt i32 %4, 100
  br i1 %5, label %6, label %7

6:
  call void @__kxs_suspend_point(i32 32)
  br label %7

7:
  %8 = load i32, ptr %1
  %9 = load i32, ptr @calls
  call i32 (ptr, ...) @printf(ptr @.fmt, i32 %8, i32 %9, i32 0)
  ret ptr null
}

define i32 @main() {
  %1 = alloca ptr
  store ptr null, ptr %1
  %2 = alloca i32
  store i32 500, ptr %2
  %3 = call ptr @g(ptr %1, ptr %2)
  store i32 7, ptr %2
  %4 = call ptr @g(ptr %1, ptr %2)
  store i32 200, ptr %2
  %5 = call ptr @g(ptr %1, ptr %2)
  store i32 9, ptr %2
  %6 = call ptr @g(ptr %1, ptr %2)
  ret i32 0
}

; EXPECT:
; 7 1 0
; 9 2 0
