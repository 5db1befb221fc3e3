; Coroutine @g driven by asynchronous operations (LLVM Coroutines doc,
; "Distinct Save and Suspend"): coro.save makes the coroutine resumable
; before async_op1/async_op2 get the handle, then coro.suspend takes the
; save token. The doc's excerpt types the suspend result as i1 and switches
; on %suspend1 twice; here both are i8 and the second switch uses %suspend2.
; async_opN record the handle in @pending; main resumes it from there.
; cond() alternates true/false starting with true.
; Typed-pointer (LLVM 14) dialect.
; EXPECT-OUTPUT: 1 10 2 20 1

@.fmt = private unnamed_addr constant [4 x i8] c"%d\0A\00", align 1
@pending = global i8* null, align 8
@counter = global i32 0, align 4

define i8* @g() "coroutine.presplit"="0" {
entry:
  %id = call token @llvm.coro.id(i32 0, i8* null, i8* null, i8* null)
  %size = call i32 @llvm.coro.size.i32()
  %alloc = call i8* @malloc(i32 %size)
  %hdl = call noalias i8* @llvm.coro.begin(token %id, i8* %alloc)
  br label %for

for:
  %c = call i1 @cond()
  br i1 %c, label %if.true, label %if.false

if.true:
  %save1 = call token @llvm.coro.save(i8* %hdl)
  call void @async_op1(i8* %hdl)
  %suspend1 = call i8 @llvm.coro.suspend(token %save1, i1 false)
  switch i8 %suspend1, label %suspend [i8 0, label %resume1
                                       i8 1, label %cleanup]

resume1:
  call void @do_one()
  br label %for

if.false:
  %save2 = call token @llvm.coro.save(i8* %hdl)
  call void @async_op2(i8* %hdl)
  %suspend2 = call i8 @llvm.coro.suspend(token %save2, i1 false)
  switch i8 %suspend2, label %suspend [i8 0, label %resume2
                                       i8 1, label %cleanup]

resume2:
  call void @do_two()
  br label %for

cleanup:
  %mem = call i8* @llvm.coro.free(token %id, i8* %hdl)
  call void @free(i8* %mem)
  br label %suspend

suspend:
  %unused = call i1 @llvm.coro.end(i8* %hdl, i1 false)
  ret i8* %hdl
}

define i1 @cond() {
entry:
  %old = load i32, i32* @counter, align 4
  %new = add i32 %old, 1
  store i32 %new, i32* @counter, align 4
  %bit = and i32 %old, 1
  %r = icmp eq i32 %bit, 0
  ret i1 %r
}

define void @async_op1(i8* %h) {
entry:
  store i8* %h, i8** @pending, align 8
  call void @print(i32 1)
  ret void
}

define void @async_op2(i8* %h) {
entry:
  store i8* %h, i8** @pending, align 8
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
  %unused = call i8* @g()
  %h1 = load i8*, i8** @pending, align 8
  call void @llvm.coro.resume(i8* %h1)
  %h2 = load i8*, i8** @pending, align 8
  call void @llvm.coro.resume(i8* %h2)
  %h3 = load i8*, i8** @pending, align 8
  call void @llvm.coro.destroy(i8* %h3)
  ret i32 0
}

define void @print(i32 %v) {
entry:
  %fmt = getelementptr inbounds [4 x i8], [4 x i8]* @.fmt, i64 0, i64 0
  %r = call i32 (i8*, ...) @printf(i8* %fmt, i32 %v)
  ret void
}

declare i32 @printf(i8*, ...)
declare noalias i8* @malloc(i32)
declare void @free(i8*)

declare token @llvm.coro.id(i32, i8*, i8*, i8*)
declare i32 @llvm.coro.size.i32()
declare i8* @llvm.coro.begin(token, i8*)
declare token @llvm.coro.save(i8*)
declare i8 @llvm.coro.suspend(token, i1)
declare i8* @llvm.coro.free(token, i8*)
declare i1 @llvm.coro.end(i8*, i1)
declare void @llvm.coro.resume(i8*)
declare void @llvm.coro.destroy(i8*)
