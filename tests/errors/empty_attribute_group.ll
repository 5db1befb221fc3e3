; ERROR-AT: 33:1
; An empty attribute group, which LLVM rejects ("attribute group has no
; attributes"): the error is the input's, at the group (it used to surface
; as an internal error when the lowering's edits were checked).
define ptr @co(i32 %n) presplitcoroutine {
entry:
  %id = call token @llvm.coro.id(i32 0, ptr null, ptr null, ptr null)
  %size = call i64 @llvm.coro.size.i64()
  %mem = call ptr @malloc(i64 %size)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr %mem)
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

declare ptr @malloc(i64) #0
declare void @free(ptr)
declare token @llvm.coro.id(i32, ptr, ptr, ptr)
declare i64 @llvm.coro.size.i64()
declare ptr @llvm.coro.begin(token, ptr)
declare i8 @llvm.coro.suspend(token, i1)
declare ptr @llvm.coro.free(token, ptr)
declare i1 @llvm.coro.end(ptr, i1, token)
attributes #0 = { }
