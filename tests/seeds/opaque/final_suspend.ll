; The Coroutines document's final-suspend example: its main (resume until
; coro.done, then destroy) verbatim, with a coroutine built from the
; document's own pieces: the Python-generator pseudo-code (values 0..n-1,
; then a final suspend), the suspend/switch fragment and the final suspend
; fragment with its trap block verbatim, and the print loop's entry, cleanup
; and suspend blocks. Completed with the loop control (while.cond, resume),
; @print and the declarations.
; From the pseudo-code, f(4) prints 0, 1, 2, 3 and main then destroys it.
; Opaque-pointer twin of ../typed/final_suspend.ll: every typed pointer
; is ptr and coro.end takes its third (token none) operand, in LLVM 19
; spelling (i1 result; the harness gives LLVM 22 its void spelling).

define i32 @main() {
entry:
%hdl = call ptr @f(i32 4)
br label %while
while:
call void @llvm.coro.resume(ptr %hdl)
%done = call i1 @llvm.coro.done(ptr %hdl)
br i1 %done, label %end, label %while
end:
call void @llvm.coro.destroy(ptr %hdl)
ret i32 0
}

define ptr @f(i32 %n) {
entry:
%id = call token @llvm.coro.id(i32 0, ptr null, ptr null, ptr null)
%size = call i32 @llvm.coro.size.i32()
%alloc = call ptr @malloc(i32 %size)
%hdl = call noalias ptr @llvm.coro.begin(token %id, ptr %alloc)
br label %while.cond
while.cond:
  %i = phi i32 [ 0, %entry ], [ %inc, %resume ]
  %more = icmp slt i32 %i, %n
  br i1 %more, label %while.body, label %while.end
while.body:
  call void @print(i32 %i)
%0 = call i8 @llvm.coro.suspend(token none, i1 false)
switch i8 %0, label %suspend [i8 0, label %resume
i8 1, label %cleanup]
resume:
  %inc = add nsw i32 %i, 1
  br label %while.cond
while.end:
%s.final = call i8 @llvm.coro.suspend(token none, i1 true)
switch i8 %s.final, label %suspend [i8 0, label %trap
i8 1, label %cleanup]
trap:
call void @llvm.trap()
unreachable
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
declare void @llvm.trap()
