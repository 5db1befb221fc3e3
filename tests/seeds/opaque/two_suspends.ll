; The Coroutines document's coroutine with more than one suspend point: its
; loop and loop.resume blocks verbatim, with the rest of the print loop
; example ("the rest of the code remaining the same": entry, cleanup,
; suspend) and the overview's main. Completed with @print, the attribute
; group #4 the document's call refers to, and the declarations. The fragment
; numbers its suspend results %2 and %3, so the entry's size and allocation
; are the unnamed %0 and %1 (the print loop calls them %size and %alloc).
; From the document's pseudo-code print(n++); suspend; print(-n); suspend
; with n = 4 and two resumes: 4, -5, 5.
; Opaque-pointer twin of ../typed/two_suspends.ll: every typed pointer
; is ptr and coro.end takes its third (token none) operand, in LLVM 19
; spelling (i1 result; the harness gives LLVM 22 its void spelling).

define i32 @main() {
entry:
%hdl = call ptr @f(i32 4)
call void @llvm.coro.resume(ptr %hdl)
call void @llvm.coro.resume(ptr %hdl)
call void @llvm.coro.destroy(ptr %hdl)
ret i32 0
}

define ptr @f(i32 %n) {
entry:
%id = call token @llvm.coro.id(i32 0, ptr null, ptr null, ptr null)
%0 = call i32 @llvm.coro.size.i32()
%1 = call ptr @malloc(i32 %0)
%hdl = call noalias ptr @llvm.coro.begin(token %id, ptr %1)
br label %loop
loop:
%n.addr = phi i32 [ %n, %entry ], [ %inc, %loop.resume ]
call void @print(i32 %n.addr) #4
%2 = call i8 @llvm.coro.suspend(token none, i1 false)
switch i8 %2, label %suspend [i8 0, label %loop.resume
i8 1, label %cleanup]
loop.resume:
%inc = add nsw i32 %n.addr, 1
%sub = xor i32 %n.addr, -1
call void @print(i32 %sub)
%3 = call i8 @llvm.coro.suspend(token none, i1 false)
switch i8 %3, label %suspend [i8 0, label %loop
i8 1, label %cleanup]
cleanup:
%mem = call ptr @llvm.coro.free(token %id, ptr %hdl)
call void @free(ptr %mem)
br label %suspend
suspend:
%unused = call i1 @llvm.coro.end(ptr %hdl, i1 false, token none)
ret ptr %hdl
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

attributes #4 = { nounwind }
