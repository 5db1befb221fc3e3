; FINDING: error coro-missing-begin 9:3
; A coro.end.async in a function that makes no async coroutine (no
; coro.id.async): LLVM would leave the call for the backend to choke on.
; llcoro refuses it rather than write output with a coroutine intrinsic left.
; Valid IR: LLVM's verifier accepts it.

define void @f(ptr %ctx) {
entry:
  call i1 (ptr, i1, ...) @llvm.coro.end.async(ptr %ctx, i1 false)
  ret void
}

declare i1 @llvm.coro.end.async(ptr, i1, ...)
