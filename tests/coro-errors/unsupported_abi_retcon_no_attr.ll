; FINDING: error coro-unsupported-abi 16:3
; The returned-continuation coroutine of unsupported_abi_retcon.ll without the
; presplit attribute, as Swift-style producers write it: LLVM's CoroEarly marks
; it presplit and splits it, so it is a coroutine all the same. llcoro must
; refuse it at llvm.coro.id.retcon, not pass it through with its intrinsics
; left in the output.
; Valid IR: LLVM's verifier accepts it.
; Opaque-pointer (LLVM 19) dialect.

declare { ptr, i32 } @prototype(ptr, i1 zeroext)
declare noalias ptr @allocate(i32)
declare void @deallocate(ptr)

define { ptr, i32 } @f(ptr %buffer, i32 %n) {
entry:
  %id = call token @llvm.coro.id.retcon(i32 8, i32 4, ptr %buffer, ptr @prototype, ptr @allocate, ptr @deallocate)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr null)
  br label %loop

loop:
  %n.val = phi i32 [ %n, %entry ], [ %inc, %resume ]
  %unwind = call i1 (...) @llvm.coro.suspend.retcon.i1(i32 %n.val)
  br i1 %unwind, label %cleanup, label %resume

resume:
  %inc = add i32 %n.val, 1
  br label %loop

cleanup:
  %unused = call i1 @llvm.coro.end(ptr %hdl, i1 false, token none)
  unreachable
}

declare token @llvm.coro.id.retcon(i32, i32, ptr, ptr, ptr, ptr)
declare ptr @llvm.coro.begin(token, ptr)
declare i1 @llvm.coro.suspend.retcon.i1(...)
declare i1 @llvm.coro.end(ptr, i1, token)
