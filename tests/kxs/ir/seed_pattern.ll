; The seed's input pattern (000, "Input IR Pattern"): markers only, no labels-as-values. The first
; parameter is the continuation object, whose first word is the label slot (the documented contract
; for functions that do not call __kxs_begin). A driver calls it until it stops suspending.

declare void @__kxs_suspend_point(i32)
declare i32 @printf(ptr, ...)

@.fmt = private constant [12 x i8] c"step %d %d\0A\00"

define ptr @my_coroutine(ptr %coro, ptr %result) {
entry:
  ; ... setup ...
  %r0 = load i32, ptr %result
  call i32 (ptr, ...) @printf(ptr @.fmt, i32 1, i32 %r0)
  call void @__kxs_suspend_point(i32 42)
  ; ... more code ...
  %r1 = load i32, ptr %result
  call i32 (ptr, ...) @printf(ptr @.fmt, i32 2, i32 %r1)
  call void @__kxs_suspend_point(i32 57)
  ; ...
  %r2 = load i32, ptr %result
  call i32 (ptr, ...) @printf(ptr @.fmt, i32 3, i32 %r2)
  ret ptr null
}

@__kxs_coroutine_suspended = global i8 0

define i32 @main() {
entry:
  %cont = alloca ptr
  store ptr null, ptr %cont
  %res = alloca i32
  br label %loop
loop:
  %n = phi i32 [ 10, %entry ], [ %n1, %loop ]
  store i32 %n, ptr %res
  %r = call ptr @my_coroutine(ptr %cont, ptr %res)
  %n1 = add i32 %n, 10
  %again = icmp eq ptr %r, @__kxs_coroutine_suspended
  br i1 %again, label %loop, label %done
done:
  ret i32 0
}

; EXPECT:
; step 1 10
; step 2 20
; step 3 30
