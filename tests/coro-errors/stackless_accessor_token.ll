; FINDING: error stackless-token 18:51
; MESSAGE: in @f, block %entry: this `gc.frame.accessor` reads %lay (token), which is not the token of a statepoint
; An accessor names the frame after a call: it reads a statepoint's token, not a layout's.

declare token @llvm.gc.frame.layout(ptr, i32, i32)
declare token @llvm.frame.layout(ptr, i32)
declare void @llvm.gc.frame.save(token, ...)
declare token @llvm.gc.frame.statepoint(...)
declare token @llvm.gc.frame.accessor(token)
declare ptr @llvm.frame.sp(token)
declare i64 @llvm.gc.frame.load.i64(token, i32)
declare { ptr, i64 } @callee(ptr, i64)

define { ptr, i64 } @f(ptr %sp_arg, ptr %sp, i64 %x) {
entry:
  %lay = call token @llvm.gc.frame.layout(ptr %sp, i32 8, i32 24)
  call void (token, ...) @llvm.gc.frame.save(token %lay, i64 %x, i32 16)
  %acc = call token @llvm.gc.frame.accessor(token %lay)
  %v = call i64 @llvm.gc.frame.load.i64(token %acc, i32 16)
  %a = insertvalue { ptr, i64 } poison, ptr %sp_arg, 0
  %b = insertvalue { ptr, i64 } %a, i64 %v, 1
  ret { ptr, i64 } %b
}
