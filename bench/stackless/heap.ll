; fib and ackermann with heap frames (the gc.frame intrinsics, lowered by llcoro): every activation
; that calls takes its frame from a stack-like region (@frame_push, inlined) and gives it back before
; it returns (@frame_pop). The frame holds the caller's frame pointer at 0 and the return address at 8;
; llcoro puts what is live across each call in the spill area at 16.

declare token @llvm.gc.frame.layout(ptr, i32, i32)
declare token @llvm.frame.layout(ptr, i32)
declare i32 @llvm.gc.frame.spillsz()
declare void @llvm.gc.frame.save(token, ...)
declare token @llvm.gc.frame.statepoint(...)
declare token @llvm.gc.frame.accessor(token)
declare ptr @llvm.frame.sp(token)
declare ptr @llvm.gc.frame.load.p0(token, i32)
declare i64 @llvm.gc.frame.result.i64(token)
declare { ptr, i64 } @llvm.frame.return.i64(token, i64)

; The frame region: a bump pointer the driver sets up; frames are pushed and popped like a stack.
@frame_top = global ptr null

define ptr @frame_push(i32 %size) alwaysinline {
  %p = load ptr, ptr @frame_top
  %s = add i32 %size, 15
  %a = and i32 %s, -16
  %w = zext i32 %a to i64
  %q = getelementptr inbounds i8, ptr %p, i64 %w
  store ptr %q, ptr @frame_top
  ret ptr %p
}

define void @frame_pop(ptr %frame) alwaysinline {
  store ptr %frame, ptr @frame_top
  ret void
}

define { ptr, i64 } @hfib(ptr %sp_arg, i64 %n) {
entry:
  %small = icmp slt i64 %n, 2
  br i1 %small, label %base, label %rec

base:
  %bl = call token @llvm.frame.layout(ptr %sp_arg, i32 8)
  %br = call { ptr, i64 } @llvm.frame.return.i64(token %bl, i64 %n)
  ret { ptr, i64 } %br

rec:
  %spill = call i32 @llvm.gc.frame.spillsz()
  %size = add i32 %spill, 16
  %sp = call ptr @frame_push(i32 %size)
  %lay = call token @llvm.gc.frame.layout(ptr %sp, i32 8, i32 16)
  call void (token, ...) @llvm.gc.frame.save(token %lay, ptr %sp_arg, i32 0)
  %n1 = sub i64 %n, 1
  %t1 = call token (...) @llvm.gc.frame.statepoint(ptr @hfib, i64 %n1, token %lay)
  %a = call i64 @llvm.gc.frame.result.i64(token %t1)
  %acc1 = call token @llvm.gc.frame.accessor(token %t1)
  %n2 = sub i64 %n, 2
  %t2 = call token (...) @llvm.gc.frame.statepoint(ptr @hfib, i64 %n2, token %acc1)
  %b = call i64 @llvm.gc.frame.result.i64(token %t2)
  %acc2 = call token @llvm.gc.frame.accessor(token %t2)
  %fr = call ptr @llvm.frame.sp(token %acc2)
  %caller = call ptr @llvm.gc.frame.load.p0(token %acc2, i32 0)
  call void @frame_pop(ptr %fr)
  %sum = add i64 %a, %b
  %rl = call token @llvm.frame.layout(ptr %caller, i32 8)
  %r = call { ptr, i64 } @llvm.frame.return.i64(token %rl, i64 %sum)
  ret { ptr, i64 } %r
}

; ack(m, n): m == 0 → n + 1; n == 0 → ack(m - 1, 1); else ack(m - 1, ack(m, n - 1)).
define { ptr, i64 } @hack(ptr %sp_arg, i64 %m, i64 %n) {
entry:
  %m0 = icmp eq i64 %m, 0
  br i1 %m0, label %done, label %calls

done:
  %n1 = add i64 %n, 1
  %dl = call token @llvm.frame.layout(ptr %sp_arg, i32 8)
  %dr = call { ptr, i64 } @llvm.frame.return.i64(token %dl, i64 %n1)
  ret { ptr, i64 } %dr

calls:
  %spill = call i32 @llvm.gc.frame.spillsz()
  %size = add i32 %spill, 16
  %sp = call ptr @frame_push(i32 %size)
  %lay = call token @llvm.gc.frame.layout(ptr %sp, i32 8, i32 16)
  call void (token, ...) @llvm.gc.frame.save(token %lay, ptr %sp_arg, i32 0)
  %mm1 = sub i64 %m, 1
  %n0 = icmp eq i64 %n, 0
  br i1 %n0, label %one, label %two

one:
  %t1 = call token (...) @llvm.gc.frame.statepoint(ptr @hack, i64 %mm1, i64 1, token %lay)
  %r1 = call i64 @llvm.gc.frame.result.i64(token %t1)
  %a1 = call token @llvm.gc.frame.accessor(token %t1)
  %f1 = call ptr @llvm.frame.sp(token %a1)
  br label %out

two:
  %nm1 = sub i64 %n, 1
  %t2 = call token (...) @llvm.gc.frame.statepoint(ptr @hack, i64 %m, i64 %nm1, token %lay)
  %inner = call i64 @llvm.gc.frame.result.i64(token %t2)
  %a2 = call token @llvm.gc.frame.accessor(token %t2)
  %t3 = call token (...) @llvm.gc.frame.statepoint(ptr @hack, i64 %mm1, i64 %inner, token %a2)
  %r3 = call i64 @llvm.gc.frame.result.i64(token %t3)
  %a3 = call token @llvm.gc.frame.accessor(token %t3)
  %f3 = call ptr @llvm.frame.sp(token %a3)
  br label %out

out:
  %fr = phi ptr [ %f1, %one ], [ %f3, %two ]
  %res = phi i64 [ %r1, %one ], [ %r3, %two ]
  %caller = load ptr, ptr %fr
  call void @frame_pop(ptr %fr)
  %ol = call token @llvm.frame.layout(ptr %caller, i32 8)
  %or = call { ptr, i64 } @llvm.frame.return.i64(token %ol, i64 %res)
  ret { ptr, i64 } %or
}

; The same ackermann as a front end with proper tail calls writes it (clang -O2 does the equivalent
; to the native version): both outer calls are tail calls that pass the caller's frame, so the
; frame is made only on the path with an inner call and is given back before the outer call.
define { ptr, i64 } @hack_tail(ptr %sp_arg, i64 %m, i64 %n) {
entry:
  %m0 = icmp eq i64 %m, 0
  br i1 %m0, label %done, label %calls

done:
  %n1 = add i64 %n, 1
  %dl = call token @llvm.frame.layout(ptr %sp_arg, i32 8)
  %dr = call { ptr, i64 } @llvm.frame.return.i64(token %dl, i64 %n1)
  ret { ptr, i64 } %dr

calls:
  %mm1 = sub i64 %m, 1
  %n0 = icmp eq i64 %n, 0
  br i1 %n0, label %one, label %two

one:
  %r1 = tail call { ptr, i64 } @hack_tail(ptr %sp_arg, i64 %mm1, i64 1)
  ret { ptr, i64 } %r1

two:
  %spill = call i32 @llvm.gc.frame.spillsz()
  %size = add i32 %spill, 16
  %sp = call ptr @frame_push(i32 %size)
  %lay = call token @llvm.gc.frame.layout(ptr %sp, i32 8, i32 16)
  call void (token, ...) @llvm.gc.frame.save(token %lay, ptr %sp_arg, i32 0)
  %nm1 = sub i64 %n, 1
  %t2 = call token (...) @llvm.gc.frame.statepoint(ptr @hack_tail, i64 %m, i64 %nm1, token %lay)
  %inner = call i64 @llvm.gc.frame.result.i64(token %t2)
  %a2 = call token @llvm.gc.frame.accessor(token %t2)
  %fr = call ptr @llvm.frame.sp(token %a2)
  %caller = call ptr @llvm.gc.frame.load.p0(token %a2, i32 0)
  call void @frame_pop(ptr %fr)
  %r3 = tail call { ptr, i64 } @hack_tail(ptr %caller, i64 %mm1, i64 %inner)
  ret { ptr, i64 } %r3
}
