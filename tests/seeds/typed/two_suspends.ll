; The Coroutines document's coroutine with more than one suspend point: its
; loop and loop.resume blocks verbatim, with the rest of the print loop
; example ("the rest of the code remaining the same": entry, cleanup,
; suspend) and the overview's main. Completed with @print, the attribute
; group #4 the document's call refers to, and the declarations. The fragment
; numbers its suspend results %2 and %3, so the entry's size and allocation
; are the unnamed %0 and %1 (the print loop calls them %size and %alloc).
; From the document's pseudo-code print(n++); suspend; print(-n); suspend
; with n = 4 and two resumes: 4, -5, 5.

define i32 @main() {
entry:
%hdl = call i8* @f(i32 4)
call void @llvm.coro.resume(i8* %hdl)
call void @llvm.coro.resume(i8* %hdl)
call void @llvm.coro.destroy(i8* %hdl)
ret i32 0
}

define i8* @f(i32 %n) {
entry:
%id = call token @llvm.coro.id(i32 0, i8* null, i8* null, i8* null)
%0 = call i32 @llvm.coro.size.i32()
%1 = call i8* @malloc(i32 %0)
%hdl = call noalias i8* @llvm.coro.begin(token %id, i8* %1)
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

attributes #4 = { nounwind }
