; FINDING: error coro-unsupported-abi 18:3
; The swifterror retcon coroutine of unsupported_abi_retcon.ll without the
; presplit attribute, as Swift-style producers write it: LLVM's CoroEarly marks
; it presplit and splits it, so it is a coroutine all the same. llcoro must
; refuse it, not pass it through with its intrinsics left in the output.
; Valid IR: LLVM's verifier accepts it.
; Opaque-pointer (LLVM 19) dialect.

declare ptr @prototype(ptr, i1 zeroext, ptr swifterror)
declare noalias ptr @allocate(i32)
declare void @deallocate(ptr)
declare void @maybe_throw(ptr swifterror)

define ptr @f(ptr %buffer, i32 %n, ptr swifterror %errorslot) {
entry:
  %id = call token @llvm.coro.id.retcon(i32 8, i32 4, ptr %buffer, ptr @prototype, ptr @allocate, ptr @deallocate)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr null)
  call void @maybe_throw(ptr swifterror %errorslot)
  %unwind = call i1 (...) @llvm.coro.suspend.retcon.i1()
  br label %cleanup

cleanup:
  %unused = call i1 @llvm.coro.end(ptr %hdl, i1 false, token none)
  unreachable
}

declare token @llvm.coro.id.retcon(i32, i32, ptr, ptr, ptr, ptr)
declare ptr @llvm.coro.begin(token, ptr)
declare i1 @llvm.coro.suspend.retcon.i1(...)
declare i1 @llvm.coro.end(ptr, i1, token)
