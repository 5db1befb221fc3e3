; FINDING: error coro-retcon-end 24:3
; A yield-once accessor whose continuation returns i32 (the prototype's
; result), but whose final coro.end gives no results: the continuation would
; return nothing. LLVM writes `ret void` in a function returning i32 there (its
; verifier then rejects the output); llcoro reports it at that coro.end.
; Valid IR: LLVM's verifier accepts it.

declare i32 @prototype(ptr, i1 zeroext)
declare ptr @allocate(i32)
declare void @deallocate(ptr)

define { ptr, i32 } @f(ptr %buffer, i32 %n) {
entry:
  %id = call token @llvm.coro.id.retcon.once(i32 8, i32 8, ptr %buffer, ptr @prototype, ptr @allocate, ptr @deallocate)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr null)
  %abort = call i1 (...) @llvm.coro.suspend.retcon.i1(i32 %n)
  br i1 %abort, label %unwound, label %done

unwound:
  %u1 = call i1 @llvm.coro.end(ptr %hdl, i1 true, token none)
  unreachable

done:
  %u2 = call i1 @llvm.coro.end(ptr %hdl, i1 false, token none)
  unreachable
}

declare token @llvm.coro.id.retcon.once(i32, i32, ptr, ptr, ptr, ptr)
declare ptr @llvm.coro.begin(token, ptr)
declare i1 @llvm.coro.suspend.retcon.i1(...)
declare i1 @llvm.coro.end(ptr, i1, token)
