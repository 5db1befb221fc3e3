; FINDING: error coro-token-across-suspend 21:3
; A token live across a suspend point: %save.2 (llvm.coro.save) is made
; before the first suspend but consumed by the second coro.suspend, after
; the coroutine has been suspended and resumed once. A token cannot be
; stored in the coroutine frame, so llcoro refuses it at the token's
; definition. Valid IR: LLVM's verifier accepts it.
; Opaque-pointer (LLVM 19) dialect.

@.fmt = private unnamed_addr constant [4 x i8] c"%d\0A\00", align 1

define ptr @f(i32 %n) presplitcoroutine {
entry:
  %id = call token @llvm.coro.id(i32 0, ptr null, ptr null, ptr null)
  %size = call i32 @llvm.coro.size.i32()
  %alloc = call ptr @malloc(i32 %size)
  %hdl = call noalias ptr @llvm.coro.begin(token %id, ptr %alloc)
  br label %loop

loop:
  %n.val = phi i32 [ %n, %entry ], [ %inc, %second.resumed ]
  %save.2 = call token @llvm.coro.save(ptr %hdl)
  call void @print(i32 %n.val)
  %s1 = call i8 @llvm.coro.suspend(token none, i1 false)
  switch i8 %s1, label %suspend [i8 0, label %first.resumed
                                 i8 1, label %cleanup]

first.resumed:
  %neg = sub i32 0, %n.val
  call void @print(i32 %neg)
  %s2 = call i8 @llvm.coro.suspend(token %save.2, i1 false)
  switch i8 %s2, label %suspend [i8 0, label %second.resumed
                                 i8 1, label %cleanup]

second.resumed:
  %inc = add nsw i32 %n.val, 1
  br label %loop

cleanup:
  %mem = call ptr @llvm.coro.free(token %id, ptr %hdl)
  call void @free(ptr %mem)
  br label %suspend

suspend:
  %unused = call i1 @llvm.coro.end(ptr %hdl, i1 false, token none)
  ret ptr %hdl
}

define void @print(i32 %v) {
entry:
  %r = call i32 (ptr, ...) @printf(ptr @.fmt, i32 %v)
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
