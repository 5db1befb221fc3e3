; FINDING: error stackless-result-type 19:3
; MESSAGE: in @f, block %entry: @callee returns { ptr }, only the frame pointer: there is no result to read
; @callee returns only its caller's frame pointer, which llcoro accepts; but then there is no
; result for gc.frame.result to read.

declare token @llvm.gc.frame.layout(ptr, i32, i32)
declare token @llvm.frame.layout(ptr, i32)
declare void @llvm.gc.frame.save(token, ...)
declare token @llvm.gc.frame.statepoint(...)
declare token @llvm.gc.frame.accessor(token)
declare ptr @llvm.frame.sp(token)
declare i64 @llvm.gc.frame.result.i64(token)
declare { ptr } @callee(ptr, i64)

define { ptr, i64 } @f(ptr %sp_arg, ptr %sp, i64 %x) {
entry:
  %lay = call token @llvm.gc.frame.layout(ptr %sp, i32 8, i32 16)
  %tok = call token (...) @llvm.gc.frame.statepoint(ptr @callee, i64 %x, token %lay)
  %r = call i64 @llvm.gc.frame.result.i64(token %tok)
  %a = insertvalue { ptr, i64 } poison, ptr %sp_arg, 0
  %b = insertvalue { ptr, i64 } %a, i64 %r, 1
  ret { ptr, i64 } %b
}
