; FINDING: error stackless-stale-frame 24:39
; MESSAGE: in @f, block %next: the frame pointer %sp is used here, after the statepoint %tok, which may have moved the frame
; After the call the collector may have moved the frame: the read of slot 16 through the old
; frame pointer %sp (a parameter) is refused at its first use, in the block where it is written.

declare token @llvm.gc.frame.layout(ptr, i32, i32)
declare token @llvm.frame.layout(ptr, i32)
declare void @llvm.gc.frame.save(token, ...)
declare token @llvm.gc.frame.statepoint(...)
declare token @llvm.gc.frame.accessor(token)
declare ptr @llvm.frame.sp(token)
declare i64 @llvm.gc.frame.result.i64(token)
declare { ptr, i64 } @callee(ptr, i64)

define { ptr, i64 } @f(ptr %sp_arg, ptr %sp, i64 %x) {
entry:
  %lay = call token @llvm.gc.frame.layout(ptr %sp, i32 8, i32 24)
  call void (token, ...) @llvm.gc.frame.save(token %lay, i64 %x, i32 16)
  %tok = call token (...) @llvm.gc.frame.statepoint(ptr @callee, i64 %x, token %lay)
  %r = call i64 @llvm.gc.frame.result.i64(token %tok)
  br label %next

next:
  %p = getelementptr inbounds i8, ptr %sp, i64 16
  %old = load i64, ptr %p
  %v = add i64 %r, %old
  %a = insertvalue { ptr, i64 } poison, ptr %sp_arg, 0
  %b = insertvalue { ptr, i64 } %a, i64 %v, 1
  ret { ptr, i64 } %b
}
