; FINDING: error coro-unsupported-abi 19:3
; A returned-continuation (retcon) coroutine with a swifterror parameter, shaped
; like LLVM's coro-swifterror test. LLVM's CoroSplit threads the swifterror
; slot through each continuation; llcoro does not do that yet, so it refuses
; the function at the first instruction that names the slot rather than write
; output that breaks the verifier's swifterror rules.
; Valid IR: LLVM's verifier accepts it.
; Opaque-pointer (LLVM 19) dialect.

declare ptr @prototype(ptr, i1 zeroext, ptr swifterror)
declare noalias ptr @allocate(i32)
declare void @deallocate(ptr)
declare void @maybe_throw(ptr swifterror)

define ptr @f(ptr %buffer, i32 %n, ptr swifterror %errorslot) presplitcoroutine {
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
