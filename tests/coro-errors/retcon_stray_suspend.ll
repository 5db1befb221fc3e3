; FINDING: error coro-missing-begin 10:3
; A coro.suspend.retcon in a function that makes no returned-continuation
; coroutine (no coro.id.retcon): LLVM would leave the call for the backend to
; choke on. llcoro refuses it rather than write output with a coroutine
; intrinsic left in it.
; Valid IR: LLVM's verifier accepts it.

define i32 @f(i32 %n) {
entry:
  %unwind = call i1 (...) @llvm.coro.suspend.retcon.i1(i32 %n)
  ret i32 %n
}

declare i1 @llvm.coro.suspend.retcon.i1(...)
