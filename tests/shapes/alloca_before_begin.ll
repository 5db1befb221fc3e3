; Allocas written before coro.begin (before coro.id, even) and read after a
; suspend: a scalar, an array filled element by element, and a struct whose
; address is passed to a call before coro.begin (@fill writes through it).
; Their contents must reach the frame. After each resume the body reads and
; changes them. main: ramp, resume twice, destroy.

%pair = type { i32, i64 }

define ptr @co(i32 %n) presplitcoroutine {
entry:
  %x = alloca i32
  %arr = alloca [3 x i32]
  %p = alloca %pair
  store i32 %n, ptr %x
  store i32 10, ptr %arr
  %a1 = getelementptr inbounds [3 x i32], ptr %arr, i64 0, i64 1
  store i32 20, ptr %a1
  %a2 = getelementptr inbounds [3 x i32], ptr %arr, i64 0, i64 2
  store i32 30, ptr %a2
  call void @fill(ptr %p, i32 %n)
  %id = call token @llvm.coro.id(i32 0, ptr null, ptr null, ptr null)
  %size = call i64 @llvm.coro.size.i64()
  %mem = call ptr @malloc(i64 %size)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr %mem)
  br label %loop

loop:
  %s = call i8 @llvm.coro.suspend(token none, i1 false)
  switch i8 %s, label %suspend [ i8 0, label %resume
                                 i8 1, label %cleanup ]

resume:
  %xv = load i32, ptr %x
  call void @print(i32 %xv)
  %e0 = load i32, ptr %arr
  %e1 = load i32, ptr %a1
  %e2 = load i32, ptr %a2
  %sum01 = add i32 %e0, %e1
  %sum = add i32 %sum01, %e2
  call void @print(i32 %sum)
  %pf = getelementptr inbounds %pair, ptr %p, i32 0, i32 1
  %pv = load i64, ptr %pf
  %pv32 = trunc i64 %pv to i32
  call void @print(i32 %pv32)
  %xn = add i32 %xv, 1
  store i32 %xn, ptr %x
  %e0n = add i32 %e0, 1
  store i32 %e0n, ptr %arr
  br label %loop

cleanup:
  %pf0 = load i32, ptr %p
  call void @print(i32 %pf0)
  %f = call ptr @llvm.coro.free(token %id, ptr %hdl)
  call void @free(ptr %f)
  br label %suspend

suspend:
  %u = call i1 @llvm.coro.end(ptr %hdl, i1 false, token none)
  ret ptr %hdl
}

define void @fill(ptr %p, i32 %n) {
entry:
  store i32 -5, ptr %p
  %f1 = getelementptr inbounds %pair, ptr %p, i32 0, i32 1
  %w = sext i32 %n to i64
  %w2 = mul i64 %w, 1000
  store i64 %w2, ptr %f1
  ret void
}

define i32 @main() {
entry:
  %h = call ptr @co(i32 3)
  call void @llvm.coro.resume(ptr %h)
  call void @llvm.coro.resume(ptr %h)
  call void @llvm.coro.destroy(ptr %h)
  ret i32 0
}

@.fmt = private unnamed_addr constant [4 x i8] c"%d\0A\00"

define void @print(i32 %v) {
entry:
  %r = call i32 (ptr, ...) @printf(ptr @.fmt, i32 %v)
  ret void
}

declare i32 @printf(ptr, ...)
declare ptr @malloc(i64)
declare void @free(ptr)
declare token @llvm.coro.id(i32, ptr, ptr, ptr)
declare i64 @llvm.coro.size.i64()
declare ptr @llvm.coro.begin(token, ptr)
declare token @llvm.coro.save(ptr)
declare i8 @llvm.coro.suspend(token, i1)
declare ptr @llvm.coro.free(token, ptr)
declare i1 @llvm.coro.end(ptr, i1, token)
declare void @llvm.coro.resume(ptr)
declare void @llvm.coro.destroy(ptr)
declare i1 @llvm.coro.done(ptr)
declare ptr @llvm.coro.promise(ptr, i32, i1)
