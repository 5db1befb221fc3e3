; FINDING: error stackless-result-type 19:3
; MESSAGE: in @f, block %entry: this result is read as i32, but @callee returns { ptr, i64 }: its result is i64
; @callee is declared returning {ptr, i64}; the statepoint's result is read as an i32. llcoro
; used to rewrite the call against the declaration and read half the result.

declare token @llvm.gc.frame.layout(ptr, i32, i32)
declare token @llvm.frame.layout(ptr, i32)
declare void @llvm.gc.frame.save(token, ...)
declare token @llvm.gc.frame.statepoint(...)
declare token @llvm.gc.frame.accessor(token)
declare ptr @llvm.frame.sp(token)
declare i32 @llvm.gc.frame.result.i32(token)
declare { ptr, i64 } @callee(ptr, i64)

define { ptr, i32 } @f(ptr %sp_arg, ptr %sp, i64 %x) {
entry:
  %lay = call token @llvm.gc.frame.layout(ptr %sp, i32 8, i32 16)
  %tok = call token (...) @llvm.gc.frame.statepoint(ptr @callee, i64 %x, token %lay)
  %r = call i32 @llvm.gc.frame.result.i32(token %tok)
  %a = insertvalue { ptr, i32 } poison, ptr %sp_arg, 0
  %b = insertvalue { ptr, i32 } %a, i32 %r, 1
  ret { ptr, i32 } %b
}
