; A stackless loop that makes a call per iteration. The frame is laid out once before the loop (the
; caller's frame pointer saved at 0), and inside the loop on the frame pointer the previous call
; returned (`frame.sp` of its accessor), so the loop carries a pointer, not a token.
; %i and %acc are live across each call and spilled by llcoro. main.c captures a copy of the frame
; during one call and later continues it through the re-entry function it finds in the frame
; descriptor table.

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
declare ptr @alloc_frame(i32)
declare { ptr, i64 } @emit(ptr, i64)

define { ptr, i64 } @producer(ptr %sp_arg, i64 %n) {
entry:
  %spill = call i32 @llvm.gc.frame.spillsz()
  %size = add i32 %spill, 16
  %sp = call ptr @alloc_frame(i32 %size)
  %first = call token @llvm.gc.frame.layout(ptr %sp, i32 8, i32 16)
  call void (token, ...) @llvm.gc.frame.save(token %first, ptr %sp_arg, i32 0)
  br label %loop

loop:
  %cur = phi ptr [ %sp, %entry ], [ %next, %loop ]
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %acc = phi i64 [ 0, %entry ], [ %acc1, %loop ]
  %lay = call token @llvm.gc.frame.layout(ptr %cur, i32 8, i32 16)
  %t = call token (...) @llvm.gc.frame.statepoint(ptr @emit, i64 %i, token %lay)
  %r = call i64 @llvm.gc.frame.result.i64(token %t)
  %a = call token @llvm.gc.frame.accessor(token %t)
  %next = call ptr @llvm.frame.sp(token %a)
  %acc1 = add i64 %acc, %r
  %i1 = add i64 %i, 1
  %more = icmp slt i64 %i1, %n
  br i1 %more, label %loop, label %done

done:
  %caller = call ptr @llvm.gc.frame.load.p0(token %a, i32 0)
  %rl = call token @llvm.frame.layout(ptr %caller, i32 8)
  %ret = call { ptr, i64 } @llvm.frame.return.i64(token %rl, i64 %acc1)
  ret { ptr, i64 } %ret
}
