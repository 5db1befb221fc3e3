; The issue's example of what LLVM cannot share: four regions, each with eight i64 values that are
; live across that region's suspend only. LLVM gives every spilled SSA value its own frame slot
; (16 + 4 * 8 * 8 + index = 280 bytes); interference lets the regions share one set of eight slots
; (16 + 64 + index = 88). Used by crates/llcoro/tests/frames.rs, which checks both sizes and that
; the program prints the same with either lowering: each region's sum, 36 + 64 * k for k = 0..3.
@.fmt = private constant [5 x i8] c"%ld\0A\00"
declare i32 @printf(ptr, ...)
define i64 @val(i64 %k) noinline {
  ret i64 %k
}
define void @print(i64 %v) {
  %r = call i32 (ptr, ...) @printf(ptr @.fmt, i64 %v)
  ret void
}
define i32 @main() {
  %h = call ptr @f()
  call void @llvm.coro.resume(ptr %h)
  call void @llvm.coro.resume(ptr %h)
  call void @llvm.coro.resume(ptr %h)
  call void @llvm.coro.resume(ptr %h)
  call void @llvm.coro.destroy(ptr %h)
  ret i32 0
}
declare ptr @malloc(i64)
declare void @free(ptr)
declare token @llvm.coro.id(i32, ptr, ptr, ptr)
declare i64 @llvm.coro.size.i64()
declare ptr @llvm.coro.begin(token, ptr)
declare i8 @llvm.coro.suspend(token, i1)
declare ptr @llvm.coro.free(token, ptr)
declare i1 @llvm.coro.end(ptr, i1, token)
declare void @llvm.coro.resume(ptr)
declare void @llvm.coro.destroy(ptr)

define ptr @f() presplitcoroutine {
entry:
  %id = call token @llvm.coro.id(i32 0, ptr null, ptr null, ptr null)
  %size = call i64 @llvm.coro.size.i64()
  %mem = call ptr @malloc(i64 %size)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr %mem)
  br label %r0
r0:
  %v0_0 = call i64 @val(i64 1)
  %v0_1 = call i64 @val(i64 2)
  %v0_2 = call i64 @val(i64 3)
  %v0_3 = call i64 @val(i64 4)
  %v0_4 = call i64 @val(i64 5)
  %v0_5 = call i64 @val(i64 6)
  %v0_6 = call i64 @val(i64 7)
  %v0_7 = call i64 @val(i64 8)
  %s0 = call i8 @llvm.coro.suspend(token none, i1 false)
  switch i8 %s0, label %suspend [ i8 0, label %a0  i8 1, label %cleanup ]
a0:
  %t0_1 = add i64 %v0_0, %v0_1
  %t0_2 = add i64 %t0_1, %v0_2
  %t0_3 = add i64 %t0_2, %v0_3
  %t0_4 = add i64 %t0_3, %v0_4
  %t0_5 = add i64 %t0_4, %v0_5
  %t0_6 = add i64 %t0_5, %v0_6
  %t0_7 = add i64 %t0_6, %v0_7
  call void @print(i64 %t0_7)
  br label %r1
r1:
  %v1_0 = call i64 @val(i64 9)
  %v1_1 = call i64 @val(i64 10)
  %v1_2 = call i64 @val(i64 11)
  %v1_3 = call i64 @val(i64 12)
  %v1_4 = call i64 @val(i64 13)
  %v1_5 = call i64 @val(i64 14)
  %v1_6 = call i64 @val(i64 15)
  %v1_7 = call i64 @val(i64 16)
  %s1 = call i8 @llvm.coro.suspend(token none, i1 false)
  switch i8 %s1, label %suspend [ i8 0, label %a1  i8 1, label %cleanup ]
a1:
  %t1_1 = add i64 %v1_0, %v1_1
  %t1_2 = add i64 %t1_1, %v1_2
  %t1_3 = add i64 %t1_2, %v1_3
  %t1_4 = add i64 %t1_3, %v1_4
  %t1_5 = add i64 %t1_4, %v1_5
  %t1_6 = add i64 %t1_5, %v1_6
  %t1_7 = add i64 %t1_6, %v1_7
  call void @print(i64 %t1_7)
  br label %r2
r2:
  %v2_0 = call i64 @val(i64 17)
  %v2_1 = call i64 @val(i64 18)
  %v2_2 = call i64 @val(i64 19)
  %v2_3 = call i64 @val(i64 20)
  %v2_4 = call i64 @val(i64 21)
  %v2_5 = call i64 @val(i64 22)
  %v2_6 = call i64 @val(i64 23)
  %v2_7 = call i64 @val(i64 24)
  %s2 = call i8 @llvm.coro.suspend(token none, i1 false)
  switch i8 %s2, label %suspend [ i8 0, label %a2  i8 1, label %cleanup ]
a2:
  %t2_1 = add i64 %v2_0, %v2_1
  %t2_2 = add i64 %t2_1, %v2_2
  %t2_3 = add i64 %t2_2, %v2_3
  %t2_4 = add i64 %t2_3, %v2_4
  %t2_5 = add i64 %t2_4, %v2_5
  %t2_6 = add i64 %t2_5, %v2_6
  %t2_7 = add i64 %t2_6, %v2_7
  call void @print(i64 %t2_7)
  br label %r3
r3:
  %v3_0 = call i64 @val(i64 25)
  %v3_1 = call i64 @val(i64 26)
  %v3_2 = call i64 @val(i64 27)
  %v3_3 = call i64 @val(i64 28)
  %v3_4 = call i64 @val(i64 29)
  %v3_5 = call i64 @val(i64 30)
  %v3_6 = call i64 @val(i64 31)
  %v3_7 = call i64 @val(i64 32)
  %s3 = call i8 @llvm.coro.suspend(token none, i1 false)
  switch i8 %s3, label %suspend [ i8 0, label %a3  i8 1, label %cleanup ]
a3:
  %t3_1 = add i64 %v3_0, %v3_1
  %t3_2 = add i64 %t3_1, %v3_2
  %t3_3 = add i64 %t3_2, %v3_3
  %t3_4 = add i64 %t3_3, %v3_4
  %t3_5 = add i64 %t3_4, %v3_5
  %t3_6 = add i64 %t3_5, %v3_6
  %t3_7 = add i64 %t3_6, %v3_7
  call void @print(i64 %t3_7)
  br label %fin
fin:
  %sf = call i8 @llvm.coro.suspend(token none, i1 true)
  switch i8 %sf, label %suspend [ i8 0, label %trap  i8 1, label %cleanup ]
trap:
  unreachable
cleanup:
  %fm = call ptr @llvm.coro.free(token %id, ptr %hdl)
  call void @free(ptr %fm)
  br label %suspend
suspend:
  %unused = call i1 @llvm.coro.end(ptr %hdl, i1 false, token none)
  ret ptr %hdl
}
