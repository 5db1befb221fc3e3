; Two returned-continuation coroutines with swifterror values (swiftcc, as Swift emits them).
; @count has a swifterror parameter: each step calls a function that may set the error, reads it
; back, and suspends; the caller of the ramp and of each continuation sees the error value of its
; own call (LLVM threads the slot through the continuations, whose prototype also takes one).
; @tally has a swifterror alloca and a prototype without a slot. Driven by swifterror.cpp.

declare swiftcc { ptr, i32 } @count_prototype(ptr, i1 zeroext, ptr swiftself, ptr swifterror)
declare noalias ptr @allocate(i32)
declare void @deallocate(ptr)
declare swiftcc void @maybe_fail(i32, ptr swiftself, ptr swifterror)
declare void @log_error(i32, ptr)

define swiftcc { ptr, i32 } @count(ptr %buffer, i32 %n, ptr swiftself %ctx, ptr swifterror %err) presplitcoroutine {
entry:
  %id = call token @llvm.coro.id.retcon(i32 8, i32 4, ptr %buffer, ptr @count_prototype, ptr @allocate, ptr @deallocate)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr null)
  br label %loop

loop:
  %i = phi i32 [ %n, %entry ], [ %inc, %resume ]
  call swiftcc void @maybe_fail(i32 %i, ptr swiftself null, ptr swifterror %err)
  %e = load ptr, ptr %err
  call void @log_error(i32 %i, ptr %e)
  %r = call { i1, ptr, ptr } (...) @llvm.coro.suspend.retcon.sl_i1p0p0s(i32 %i)
  %abort = extractvalue { i1, ptr, ptr } %r, 0
  br i1 %abort, label %cleanup, label %resume

resume:
  %inc = add i32 %i, 1
  br label %loop

cleanup:
  store ptr inttoptr (i64 999 to ptr), ptr %err
  %unused = call i1 @llvm.coro.end(ptr %hdl, i1 false, token none)
  unreachable
}

; A swifterror alloca (the prototype has no slot): its value lives in the frame across suspends,
; and each function passes a swifterror slot of its own to the calls.
declare { ptr, i32 } @tally_prototype(ptr, i1 zeroext)

define { ptr, i32 } @tally(ptr %buffer, i32 %n) presplitcoroutine {
entry:
  %err = alloca swifterror ptr, align 8
  store ptr null, ptr %err
  %id = call token @llvm.coro.id.retcon(i32 16, i32 8, ptr %buffer, ptr @tally_prototype, ptr @allocate, ptr @deallocate)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr null)
  br label %loop

loop:
  %i = phi i32 [ %n, %entry ], [ %inc, %resume ]
  %before = load ptr, ptr %err
  call void @log_error(i32 %i, ptr %before)
  call swiftcc void @maybe_fail(i32 %i, ptr swiftself null, ptr swifterror %err)
  %abort = call i1 (...) @llvm.coro.suspend.retcon.i1(i32 %i)
  br i1 %abort, label %cleanup, label %resume

resume:
  %inc = add i32 %i, 1
  br label %loop

cleanup:
  %last = load ptr, ptr %err
  call void @log_error(i32 -1, ptr %last)
  %unused = call i1 @llvm.coro.end(ptr %hdl, i1 false, token none)
  unreachable
}

declare token @llvm.coro.id.retcon(i32, i32, ptr, ptr, ptr, ptr)
declare ptr @llvm.coro.begin(token, ptr)
declare { i1, ptr, ptr } @llvm.coro.suspend.retcon.sl_i1p0p0s(...)
declare i1 @llvm.coro.suspend.retcon.i1(...)
declare i1 @llvm.coro.end(ptr, i1, token)
