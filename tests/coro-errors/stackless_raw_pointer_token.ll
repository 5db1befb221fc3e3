; FINDING: error stackless-statepoint-layout 18:78
; MESSAGE: in @f, block %entry: this statepoint's frame operand %sp (ptr) is not the token of a frame layout, nor an accessor of one
; The statepoint is given the raw frame pointer %sp where the layout's token belongs. That operand
; is blamed, not the save on the statepoint's accessor that follows.

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
  %lay = call token @llvm.gc.frame.layout(ptr %sp, i32 8, i32 16)
  %tok = call token (...) @llvm.gc.frame.statepoint(ptr @callee, i64 %x, ptr %sp)
  %acc = call token @llvm.gc.frame.accessor(token %tok)
  call void (token, ...) @llvm.gc.frame.save(token %acc, i64 %x, i32 0)
  %r = call i64 @llvm.gc.frame.result.i64(token %tok)
  %a = insertvalue { ptr, i64 } poison, ptr %sp_arg, 0
  %b = insertvalue { ptr, i64 } %a, i64 %r, 1
  ret { ptr, i64 } %b
}
