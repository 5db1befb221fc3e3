; The seed's input pattern in typed pointers (LLVM 14): markers only, the first parameter is the
; address of the label slot, and a driver calls the function until it stops suspending.

declare void @__kxs_suspend_point(i32)
declare i32 @printf(i8*, ...)

@.fmt = private constant [12 x i8] c"step %d %d\0A\00"
@__kxs_coroutine_suspended = global i8 0

define i8* @my_coroutine(i8** %coro, i32* %result) {
entry:
  %r0 = load i32, i32* %result
  %f0 = getelementptr [12 x i8], [12 x i8]* @.fmt, i64 0, i64 0
  call i32 (i8*, ...) @printf(i8* %f0, i32 1, i32 %r0)
  call void @__kxs_suspend_point(i32 42)
  %r1 = load i32, i32* %result
  %f1 = getelementptr [12 x i8], [12 x i8]* @.fmt, i64 0, i64 0
  call i32 (i8*, ...) @printf(i8* %f1, i32 2, i32 %r1)
  call void @__kxs_suspend_point(i32 57)
  %r2 = load i32, i32* %result
  %f2 = getelementptr [12 x i8], [12 x i8]* @.fmt, i64 0, i64 0
  call i32 (i8*, ...) @printf(i8* %f2, i32 3, i32 %r2)
  ret i8* null
}

define i32 @main() {
entry:
  %cont = alloca i8*
  store i8* null, i8** %cont
  %res = alloca i32
  br label %loop
loop:
  %n = phi i32 [ 10, %entry ], [ %n1, %loop ]
  store i32 %n, i32* %res
  %r = call i8* @my_coroutine(i8** %cont, i32* %res)
  %n1 = add i32 %n, 10
  %again = icmp eq i8* %r, @__kxs_coroutine_suspended
  br i1 %again, label %loop, label %done
done:
  ret i32 0
}

; EXPECT:
; step 1 10
; step 2 20
; step 3 30
