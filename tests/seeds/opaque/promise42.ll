; The Coroutines document's coro.promise intrinsic example: @f stores 42 into
; its promise and main reads it through coro.promise and prints it, then
; destroys the coroutine. The document elides parts of @f with "..."; they are
; completed from the print loop example: the allocation (coro.size, malloc)
; before coro.begin, and after the store a suspend whose cleanup frees the
; frame, and the coro.end block (the document's "ret i8* %hdl" ends it).
; Completed also with @print and the declarations. It prints 42.
; Opaque-pointer twin of ../typed/promise42.ll: every typed pointer
; is ptr and coro.end takes its third (token none) operand, in LLVM 19
; spelling (i1 result; the harness gives LLVM 22 its void spelling).

define ptr @f(i32 %n) {
entry:
%promise = alloca i32
%pv = bitcast ptr %promise to ptr
; the second argument to coro.id points to the coroutine promise.
%id = call token @llvm.coro.id(i32 0, ptr %pv, ptr null, ptr null)
  %size = call i32 @llvm.coro.size.i32()
  %alloc = call ptr @malloc(i32 %size)
%hdl = call noalias ptr @llvm.coro.begin(token %id, ptr %alloc)
store i32 42, ptr %promise ; store something into the promise
  %s = call i8 @llvm.coro.suspend(token none, i1 false)
  switch i8 %s, label %suspend [i8 0, label %suspend
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
%hdl = call ptr @f(i32 4) ; starts the coroutine and returns its handle
%promise.addr.raw = call ptr @llvm.coro.promise(ptr %hdl, i32 4, i1 false)
%promise.addr = bitcast ptr %promise.addr.raw to ptr
%val = load i32, ptr %promise.addr ; load a value from the promise
call void @print(i32 %val)
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
