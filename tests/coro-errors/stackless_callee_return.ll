; FINDING: error stackless-callee-type 16:57
; MESSAGE: in @f, block %entry: @callee returns i64: a stackless callee returns its caller's frame pointer first
; @callee returns a plain i64, not the caller's frame pointer (and a result).

declare token @llvm.gc.frame.layout(ptr, i32, i32)
declare token @llvm.frame.layout(ptr, i32)
declare void @llvm.gc.frame.save(token, ...)
declare token @llvm.gc.frame.statepoint(...)
declare token @llvm.gc.frame.accessor(token)
declare ptr @llvm.frame.sp(token)
declare i64 @callee(ptr, i64)

define { ptr, i64 } @f(ptr %sp_arg, ptr %sp, i64 %x) {
entry:
  %lay = call token @llvm.gc.frame.layout(ptr %sp, i32 8, i32 16)
  %tok = call token (...) @llvm.gc.frame.statepoint(ptr @callee, i64 %x, token %lay)
  %a = insertvalue { ptr, i64 } poison, ptr %sp_arg, 0
  %b = insertvalue { ptr, i64 } %a, i64 0, 1
  ret { ptr, i64 } %b
}
