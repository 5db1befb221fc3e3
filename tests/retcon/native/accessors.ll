; Returned-continuation coroutines driven from C++ (accessors.cpp): a generator (coro.id.retcon)
; that takes a value with each resume, keeps an address-taken local across its suspends and ends
; by itself or when sent a negative value; and yield-once accessors (coro.id.retcon.once) that
; lend a slot the caller edits, committed, aborted (resumed with true) or unwound (the commit
; throws a C++ exception: the landing pad's coro.end frees the frame and the exception goes on to
; the caller). The frames of @access_small and @count do not fit their buffers and come from
; @rc_alloc; @access_big's fits.

declare void @note(i32)
declare void @may_throw(i32)
declare void @bump(ptr, i32)
declare ptr @rc_alloc(i64)
declare void @rc_free(ptr)
declare i32 @__gxx_personality_v0(...)

declare { ptr, i64 } @count_proto(ptr, i32)
declare void @access_proto(ptr, i1 zeroext)

; Yields total, total + sent * k, ...: stops after 6 yields or when sent a negative value.
define { ptr, i64 } @count(ptr %buffer, i64 %start) {
entry:
  %id = call token @llvm.coro.id.retcon(i32 8, i32 8, ptr %buffer, ptr @count_proto, ptr @rc_alloc, ptr @rc_free)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr null)
  %total = alloca i64, align 8
  store i64 %start, ptr %total, align 8
  br label %loop

loop:
  %k = phi i32 [ 0, %entry ], [ %k1, %next ]
  %t = load i64, ptr %total, align 8
  %sent = call i32 (...) @llvm.coro.suspend.retcon.i32(i64 %t)
  %stop = icmp slt i32 %sent, 0
  br i1 %stop, label %stopped, label %next

next:
  %k1 = add i32 %k, 1
  %step = mul i32 %sent, %k1
  call void @bump(ptr %total, i32 %step)
  %more = icmp slt i32 %k1, 6
  br i1 %more, label %loop, label %finished

stopped:
  call void @note(i32 -1)
  br label %finished

finished:
  %unused = call i1 @llvm.coro.end(ptr %hdl, i1 false, token none)
  unreachable
}

; Lends a copy of *cell; resumed with false writes it back (after @may_throw, which throws for a
; negative value), with true leaves *cell alone.
define { ptr, ptr } @access_small(ptr %buffer, ptr %cell) personality ptr @__gxx_personality_v0 {
entry:
  %id = call token @llvm.coro.id.retcon.once(i32 8, i32 8, ptr %buffer, ptr @access_proto, ptr @rc_alloc, ptr @rc_free)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr null)
  %slot = alloca i32, align 4
  %old = load i32, ptr %cell, align 4
  store i32 %old, ptr %slot, align 4
  %abort = call i1 (...) @llvm.coro.suspend.retcon.i1(ptr %slot)
  br i1 %abort, label %aborted, label %commit

commit:
  %new = load i32, ptr %slot, align 4
  invoke void @may_throw(i32 %new)
          to label %store unwind label %lpad

store:
  store i32 %new, ptr %cell, align 4
  call void @note(i32 1)
  br label %end

aborted:
  call void @note(i32 0)
  br label %end

end:
  %u1 = call i1 @llvm.coro.end(ptr %hdl, i1 false, token none)
  unreachable

lpad:
  %lp = landingpad { ptr, i32 }
          cleanup
  call void @note(i32 2)
  %u2 = call i1 @llvm.coro.end(ptr %hdl, i1 true, token none)
  resume { ptr, i32 } %lp
}

; The same with a buffer the frame fits in.
define { ptr, ptr } @access_big(ptr %buffer, ptr %cell) personality ptr @__gxx_personality_v0 {
entry:
  %id = call token @llvm.coro.id.retcon.once(i32 32, i32 8, ptr %buffer, ptr @access_proto, ptr @rc_alloc, ptr @rc_free)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr null)
  %slot = alloca i32, align 4
  %old = load i32, ptr %cell, align 4
  store i32 %old, ptr %slot, align 4
  %abort = call i1 (...) @llvm.coro.suspend.retcon.i1(ptr %slot)
  br i1 %abort, label %aborted, label %commit

commit:
  %new = load i32, ptr %slot, align 4
  invoke void @may_throw(i32 %new)
          to label %store unwind label %lpad

store:
  store i32 %new, ptr %cell, align 4
  call void @note(i32 11)
  br label %end

aborted:
  call void @note(i32 10)
  br label %end

end:
  %u1 = call i1 @llvm.coro.end(ptr %hdl, i1 false, token none)
  unreachable

lpad:
  %lp = landingpad { ptr, i32 }
          cleanup
  call void @note(i32 12)
  %u2 = call i1 @llvm.coro.end(ptr %hdl, i1 true, token none)
  resume { ptr, i32 } %lp
}

declare token @llvm.coro.id.retcon(i32, i32, ptr, ptr, ptr, ptr)
declare token @llvm.coro.id.retcon.once(i32, i32, ptr, ptr, ptr, ptr)
declare ptr @llvm.coro.begin(token, ptr)
declare i32 @llvm.coro.suspend.retcon.i32(...)
declare i1 @llvm.coro.suspend.retcon.i1(...)
declare i1 @llvm.coro.end(ptr, i1, token)
