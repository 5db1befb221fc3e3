; FINDING: warning coro-intrinsic-kept 31:3
; MESSAGE: @llvm.coro.suspend kept in the output
; KEEPS: llvm.coro.suspend
; A function that is not a coroutine (no coro.id, no coro.begin) resumes a
; coroutine through coro.subfn.addr and then calls coro.save and coro.suspend,
; as LLVM's own CoroElide tests do. Nothing lowers a suspend outside a coroutine:
; LLVM's coro passes leave it, and so does llcoro, with its declaration (LLVM 14
; rejects a call of an undeclared intrinsic), with a warning; the rest is
; lowered around it (coro.save becomes none, coro.subfn.addr a header load).
; Valid IR: LLVM's verifier accepts it.

define ptr @ramp() presplitcoroutine {
entry:
  %id = call token @llvm.coro.id(i32 0, ptr null, ptr null, ptr null)
  %mem = call ptr @malloc(i64 32)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr %mem)
  %s = call i8 @llvm.coro.suspend(token none, i1 false)
  switch i8 %s, label %out [i8 0, label %out
                            i8 1, label %out]
out:
  call i1 @llvm.coro.end(ptr %hdl, i1 false, token none)
  ret ptr %hdl
}

define void @driver() {
entry:
  %hdl = call ptr @ramp()
  %fn = call ptr @llvm.coro.subfn.addr(ptr %hdl, i8 0)
  call fastcc void %fn(ptr %hdl)
  %tok = call token @llvm.coro.save(ptr %hdl)
  %r = call i8 @llvm.coro.suspend(token %tok, i1 false)
  ret void
}

declare ptr @malloc(i64)
declare token @llvm.coro.id(i32, ptr, ptr, ptr)
declare ptr @llvm.coro.begin(token, ptr)
declare i8 @llvm.coro.suspend(token, i1)
declare token @llvm.coro.save(ptr)
declare ptr @llvm.coro.subfn.addr(ptr, i8)
declare i1 @llvm.coro.end(ptr, i1, token)
