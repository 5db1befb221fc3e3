; FINDING: error stackless-token-use 20:78
; MESSAGE: in @f, block %entry: the frame token %lay is passed to @llvm.gc.fra.statepoint, which is not a frame intrinsic, and would be left dangling
; A misspelt statepoint (`gc.fra.statepoint`) is an ordinary call: the layout token it is given
; would name nothing once llcoro replaces the layout. It used to be refused as llcoro's own fault
; (an operand defined by no instruction in the function); now the token's use is refused.

declare token @llvm.gc.frame.layout(ptr, i32, i32)
declare token @llvm.frame.layout(ptr, i32)
declare void @llvm.gc.frame.save(token, ...)
declare token @llvm.gc.frame.statepoint(...)
declare token @llvm.gc.frame.accessor(token)
declare ptr @llvm.frame.sp(token)
declare i64 @callee(ptr, i64)
declare token @llvm.gc.fra.statepoint(...)

define { ptr, i64 } @f(ptr %sp_arg, ptr %sp, i64 %x) {
entry:
  %lay = call token @llvm.gc.frame.layout(ptr %sp, i32 8, i32 16)
  call void (token, ...) @llvm.gc.frame.save(token %lay, ptr %sp_arg, i32 0)
  %tok = call token (...) @llvm.gc.fra.statepoint(ptr @callee, i64 %x, token %lay)
  %a = insertvalue { ptr, i64 } poison, ptr %sp_arg, 0
  %b = insertvalue { ptr, i64 } %a, i64 0, 1
  ret { ptr, i64 } %b
}
