; The Coroutines document's final-suspend example: its main (resume until
; coro.done, then destroy) verbatim, with a coroutine built from the
; document's own pieces: the Python-generator pseudo-code (values 0..n-1,
; then a final suspend), the suspend/switch fragment and the final suspend
; fragment with its trap block verbatim, and the print loop's entry, cleanup
; and suspend blocks. Completed with the loop control (while.cond, resume),
; @print and the declarations.
; From the pseudo-code, f(4) prints 0, 1, 2, 3 and main then destroys it.

define i32 @main() {
entry:
%hdl = call i8* @f(i32 4)
br label %while
while:
call void @llvm.coro.resume(i8* %hdl)
%done = call i1 @llvm.coro.done(i8* %hdl)
br i1 %done, label %end, label %while
end:
call void @llvm.coro.destroy(i8* %hdl)
ret i32 0
}

define i8* @f(i32 %n) {
entry:
%id = call token @llvm.coro.id(i32 0, i8* null, i8* null, i8* null)
%size = call i32 @llvm.coro.size.i32()
%alloc = call i8* @malloc(i32 %size)
%hdl = call noalias i8* @llvm.coro.begin(token %id, i8* %alloc)
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
%mem = call i8* @llvm.coro.free(token %id, i8* %hdl)
call void @free(i8* %mem)
br label %suspend
suspend:
%unused = call i1 @llvm.coro.end(i8* %hdl, i1 false)
ret i8* %hdl
}

@.fmt = private unnamed_addr constant [4 x i8] c"%d\0A\00"

define void @print(i32 %v) {
entry:
  %fmt = getelementptr [4 x i8], [4 x i8]* @.fmt, i64 0, i64 0
  %r = call i32 (i8*, ...) @printf(i8* %fmt, i32 %v)
  ret void
}

declare i32 @printf(i8*, ...)
declare i8* @malloc(i32)
declare void @free(i8*)
declare token @llvm.coro.id(i32, i8*, i8*, i8*)
declare i1 @llvm.coro.alloc(token)
declare i32 @llvm.coro.size.i32()
declare i8* @llvm.coro.begin(token, i8*)
declare i8 @llvm.coro.suspend(token, i1)
declare i8* @llvm.coro.free(token, i8*)
declare i1 @llvm.coro.end(i8*, i1)
declare void @llvm.coro.resume(i8*)
declare void @llvm.coro.destroy(i8*)
declare i1 @llvm.coro.done(i8*)
declare i8* @llvm.coro.promise(i8*, i32, i1)
declare void @llvm.trap()
