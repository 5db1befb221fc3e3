; The Coroutines document's coro.promise example, verbatim: @f with an i32
; promise and coro.alloc, and the main that reads the promise through
; coro.promise after the ramp and after each resume. Completed only with
; @print and the declarations. The document gives the compiled main as
; print(4), print(5), print(6).
; Opaque-pointer twin of ../typed/promise.ll: every typed pointer
; is ptr and coro.end takes its third (token none) operand, in LLVM 19
; spelling (i1 result; the harness gives LLVM 22 its void spelling).

define ptr @f(i32 %n) {
entry:
%promise = alloca i32
%pv = bitcast ptr %promise to ptr
%id = call token @llvm.coro.id(i32 0, ptr %pv, ptr null, ptr null)
%need.dyn.alloc = call i1 @llvm.coro.alloc(token %id)
br i1 %need.dyn.alloc, label %dyn.alloc, label %coro.begin
dyn.alloc:
%size = call i32 @llvm.coro.size.i32()
%alloc = call ptr @malloc(i32 %size)
br label %coro.begin
coro.begin:
%phi = phi ptr [ null, %entry ], [ %alloc, %dyn.alloc ]
%hdl = call noalias ptr @llvm.coro.begin(token %id, ptr %phi)
br label %loop
loop:
%n.val = phi i32 [ %n, %coro.begin ], [ %inc, %loop ]
%inc = add nsw i32 %n.val, 1
store i32 %n.val, ptr %promise
%0 = call i8 @llvm.coro.suspend(token none, i1 false)
switch i8 %0, label %suspend [i8 0, label %loop
i8 1, label %cleanup]
cleanup:
%mem = call ptr @llvm.coro.free(token %id, ptr %hdl)
call void @free(ptr %mem)
br label %suspend
suspend:
%unused = call i1 @llvm.coro.end(ptr %hdl, i1 false, token none)
ret ptr %hdl
}

define i32 @main() {
entry:
%hdl = call ptr @f(i32 4)
%promise.addr.raw = call ptr @llvm.coro.promise(ptr %hdl, i32 4, i1 false)
%promise.addr = bitcast ptr %promise.addr.raw to ptr
%val0 = load i32, ptr %promise.addr
call void @print(i32 %val0)
call void @llvm.coro.resume(ptr %hdl)
%val1 = load i32, ptr %promise.addr
call void @print(i32 %val1)
call void @llvm.coro.resume(ptr %hdl)
%val2 = load i32, ptr %promise.addr
call void @print(i32 %val2)
call void @llvm.coro.destroy(ptr %hdl)
ret i32 0
}

@.fmt = private unnamed_addr constant [4 x i8] c"%d\0A\00"

define void @print(i32 %v) {
entry:
  %fmt = getelementptr [4 x i8], ptr @.fmt, i64 0, i64 0
  %r = call i32 (ptr, ...) @printf(ptr %fmt, i32 %v)
  ret void
}

declare i32 @printf(ptr, ...)
declare ptr @malloc(i32)
declare void @free(ptr)
declare token @llvm.coro.id(i32, ptr, ptr, ptr)
declare i1 @llvm.coro.alloc(token)
declare i32 @llvm.coro.size.i32()
declare ptr @llvm.coro.begin(token, ptr)
declare i8 @llvm.coro.suspend(token, i1)
declare ptr @llvm.coro.free(token, ptr)
declare i1 @llvm.coro.end(ptr, i1, token)
declare void @llvm.coro.resume(ptr)
declare void @llvm.coro.destroy(ptr)
declare i1 @llvm.coro.done(ptr)
declare ptr @llvm.coro.promise(ptr, i32, i1)
