; FINDING: error stackless-callee-type 16:57
; MESSAGE: in @f, block %entry: this statepoint passes (i32) to @callee, declared as taking (ptr sp, i64)
; @callee takes an i64 after the frame pointer; the statepoint passes an i32.

declare token @llvm.gc.frame.layout(ptr, i32, i32)
declare token @llvm.frame.layout(ptr, i32)
declare void @llvm.gc.frame.save(token, ...)
declare token @llvm.gc.frame.statepoint(...)
declare token @llvm.gc.frame.accessor(token)
declare ptr @llvm.frame.sp(token)
declare { ptr, i64 } @callee(ptr, i64)

define { ptr, i64 } @f(ptr %sp_arg, ptr %sp, i32 %x) {
entry:
  %lay = call token @llvm.gc.frame.layout(ptr %sp, i32 8, i32 16)
  %tok = call token (...) @llvm.gc.frame.statepoint(ptr @callee, i32 %x, token %lay)
  %a = insertvalue { ptr, i64 } poison, ptr %sp_arg, 0
  %b = insertvalue { ptr, i64 } %a, i64 0, 1
  ret { ptr, i64 } %b
}
