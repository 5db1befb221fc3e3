; FINDING: error stackless-statepoint-layout 14:78
; MESSAGE: in @f, block %entry: this statepoint's frame operand %t1 (token) is not the token of a frame layout
; A statepoint's last operand must be the token of a frame layout; this one passes the token of
; another statepoint.

declare token @llvm.gc.frame.layout(ptr, i32, i32)
declare token @llvm.gc.frame.statepoint(...)
declare { ptr, i32 } @callee(ptr, i32)

define { ptr, i32 } @f(ptr %sp_arg, ptr %sp) {
entry:
  %lay = call token @llvm.gc.frame.layout(ptr %sp, i32 0, i32 16)
  %t1 = call token (...) @llvm.gc.frame.statepoint(ptr @callee, i32 1, token %lay)
  %t2 = call token (...) @llvm.gc.frame.statepoint(ptr @callee, i32 2, token %t1)
  %a = insertvalue { ptr, i32 } poison, ptr %sp_arg, 0
  %b = insertvalue { ptr, i32 } %a, i32 0, 1
  ret { ptr, i32 } %b
}
