; Coroutine @g driven by asynchronous operations (LLVM Coroutines doc,
; "Distinct Save and Suspend"): coro.save makes the coroutine resumable
; before async_op1/async_op2 get the handle, then coro.suspend takes the
; save token. The doc's excerpt types the suspend result as i1 and switches
; on %suspend1 twice; here both are i8 and the second switch uses %suspend2.
; async_opN record the handle in @pending; main resumes it from there.
; cond() alternates true/false starting with true.
; Opaque-pointer (LLVM 19) dialect.
; LLVM 22 rejects this module (its llvm.coro.end returns void; LLVM 19's
; returns i1), so it is checked against LLVM 19 only.
; EXPECT-OUTPUT: 1 10 2 20 1

@.fmt = private unnamed_addr constant [4 x i8] c"%d\0A\00", align 1
@pending = global ptr null, align 8
@counter = global i32 0, align 4

define ptr @g() presplitcoroutine {
entry:
  %id = call token @llvm.coro.id(i32 0, ptr null, ptr null, ptr null)
  %size = call i32 @llvm.coro.size.i32()
  %alloc = call ptr @malloc(i32 %size)
  %hdl = call noalias ptr @llvm.coro.begin(token %id, ptr %alloc)
  br label %for

for:
  %c = call i1 @cond()
  br i1 %c, label %if.true, label %if.false

if.true:
  %save1 = call token @llvm.coro.save(ptr %hdl)
  call void @async_op1(ptr %hdl)
  %suspend1 = call i8 @llvm.coro.suspend(token %save1, i1 false)
  switch i8 %suspend1, label %suspend [i8 0, label %resume1
                                       i8 1, label %cleanup]

resume1:
  call void @do_one()
  br label %for

if.false:
  %save2 = call token @llvm.coro.save(ptr %hdl)
  call void @async_op2(ptr %hdl)
  %suspend2 = call i8 @llvm.coro.suspend(token %save2, i1 false)
  switch i8 %suspend2, label %suspend [i8 0, label %resume2
                                       i8 1, label %cleanup]

resume2:
  call void @do_two()
  br label %for

cleanup:
  %mem = call ptr @llvm.coro.free(token %id, ptr %hdl)
  call void @free(ptr %mem)
  br label %suspend

suspend:
  %unused = call i1 @llvm.coro.end(ptr %hdl, i1 false, token none)
  ret ptr %hdl
}

define i1 @cond() {
entry:
  %old = load i32, ptr @counter, align 4
  %new = add i32 %old, 1
  store i32 %new, ptr @counter, align 4
  %bit = and i32 %old, 1
  %r = icmp eq i32 %bit, 0
  ret i1 %r
}

define void @async_op1(ptr %h) {
entry:
  store ptr %h, ptr @pending, align 8
  call void @print(i32 1)
  ret void
}

define void @async_op2(ptr %h) {
entry:
  store ptr %h, ptr @pending, align 8
  call void @print(i32 2)
  ret void
}

define void @do_one() {
entry:
  call void @print(i32 10)
  ret void
}

define void @do_two() {
entry:
  call void @print(i32 20)
  ret void
}

define i32 @main() {
entry:
  %unused = call ptr @g()
  %h1 = load ptr, ptr @pending, align 8
  call void @llvm.coro.resume(ptr %h1)
  %h2 = load ptr, ptr @pending, align 8
  call void @llvm.coro.resume(ptr %h2)
  %h3 = load ptr, ptr @pending, align 8
  call void @llvm.coro.destroy(ptr %h3)
  ret i32 0
}

define void @print(i32 %v) {
entry:
  %fmt = getelementptr inbounds [4 x i8], ptr @.fmt, i64 0, i64 0
  %r = call i32 (ptr, ...) @printf(ptr %fmt, i32 %v)
  ret void
}

declare i32 @printf(ptr, ...)
declare noalias ptr @malloc(i32)
declare void @free(ptr)

declare token @llvm.coro.id(i32, ptr, ptr, ptr)
declare i32 @llvm.coro.size.i32()
declare ptr @llvm.coro.begin(token, ptr)
declare token @llvm.coro.save(ptr)
declare i8 @llvm.coro.suspend(token, i1)
declare ptr @llvm.coro.free(token, ptr)
declare i1 @llvm.coro.end(ptr, i1, token)
declare void @llvm.coro.resume(ptr)
declare void @llvm.coro.destroy(ptr)
