; ERROR-AT: 19:3
; A coroutine whose input is not valid IR: %x is used where its definition
; does not dominate the use. The parser leaves dominance to the verifier;
; what the verifier finds in a function as the input has it is the input's
; error (not an internal one), at the instruction that uses %x.
define ptr @co(i1 %c) presplitcoroutine {
entry:
  %id = call token @llvm.coro.id(i32 0, ptr null, ptr null, ptr null)
  %size = call i64 @llvm.coro.size.i64()
  %mem = call ptr @malloc(i64 %size)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr %mem)
  br i1 %c, label %a, label %b

a:
  %x = add i32 1, 2
  br label %b

b:
  %y = add i32 %x, 1
  %s = call i8 @llvm.coro.suspend(token none, i1 false)
  switch i8 %s, label %suspend [ i8 0, label %suspend
                                 i8 1, label %cleanup ]

cleanup:
  %f = call ptr @llvm.coro.free(token %id, ptr %hdl)
  call void @free(ptr %f)
  br label %suspend

suspend:
  %u = call i1 @llvm.coro.end(ptr %hdl, i1 false, token none)
  ret ptr %hdl
}

declare ptr @malloc(i64)
declare void @free(ptr)
declare token @llvm.coro.id(i32, ptr, ptr, ptr)
declare i64 @llvm.coro.size.i64()
declare ptr @llvm.coro.begin(token, ptr)
declare i8 @llvm.coro.suspend(token, i1)
declare ptr @llvm.coro.free(token, ptr)
declare i1 @llvm.coro.end(ptr, i1, token)
