; FINDING: error coro-token-across-suspend 16:3
; A token live across a suspend point that no coroutine intrinsic consumes:
; the convergence token %tok (llvm.experimental.convergence.anchor) is made
; before the suspend and used by a convergent call's "convergencectrl"
; bundle after the resume. A token cannot be stored in the coroutine frame,
; so llcoro refuses it at the token's definition. Valid IR: LLVM's verifier
; (including its convergence checks) accepts it.
; Opaque-pointer (LLVM 19) dialect.

define ptr @f(i32 %n) presplitcoroutine convergent {
entry:
  %id = call token @llvm.coro.id(i32 0, ptr null, ptr null, ptr null)
  %size = call i32 @llvm.coro.size.i32()
  %alloc = call ptr @malloc(i32 %size)
  %hdl = call noalias ptr @llvm.coro.begin(token %id, ptr %alloc)
  %tok = call token @llvm.experimental.convergence.anchor()
  %s1 = call i8 @llvm.coro.suspend(token none, i1 false)
  switch i8 %s1, label %suspend [i8 0, label %resumed
                                 i8 1, label %cleanup]

resumed:
  call void @g(i32 %n) [ "convergencectrl"(token %tok) ]
  br label %cleanup

cleanup:
  %mem = call ptr @llvm.coro.free(token %id, ptr %hdl)
  call void @free(ptr %mem)
  br label %suspend

suspend:
  %unused = call i1 @llvm.coro.end(ptr %hdl, i1 false, token none)
  ret ptr %hdl
}

declare void @g(i32) convergent
declare noalias ptr @malloc(i32)
declare void @free(ptr)

declare token @llvm.experimental.convergence.anchor()
declare token @llvm.coro.id(i32, ptr, ptr, ptr)
declare i32 @llvm.coro.size.i32()
declare ptr @llvm.coro.begin(token, ptr)
declare i8 @llvm.coro.suspend(token, i1)
declare ptr @llvm.coro.free(token, ptr)
declare i1 @llvm.coro.end(ptr, i1, token)
