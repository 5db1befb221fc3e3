; FINDING: error stackless-spill-offset 23:80
; MESSAGE: in @f, block %entry: this statepoint puts the spill area at 24, but the statepoint %t1 puts it at 16
; The second call lays the frame out again with the spill area at 24 instead of 16: one function
; keeps its spill area at one offset. Refused at the second statepoint's frame operand.

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
  %l1 = call token @llvm.gc.frame.layout(ptr %sp, i32 8, i32 16)
  %t1 = call token (...) @llvm.gc.frame.statepoint(ptr @callee, i64 %x, token %l1)
  %r1 = call i64 @llvm.gc.frame.result.i64(token %t1)
  %a1 = call token @llvm.gc.frame.accessor(token %t1)
  %s1 = call ptr @llvm.frame.sp(token %a1)
  %l2 = call token @llvm.gc.frame.layout(ptr %s1, i32 8, i32 24)
  %t2 = call token (...) @llvm.gc.frame.statepoint(ptr @callee, i64 %r1, token %l2)
  %r2 = call i64 @llvm.gc.frame.result.i64(token %t2)
  %v = add i64 %r2, %x
  %a = insertvalue { ptr, i64 } poison, ptr %sp_arg, 0
  %b = insertvalue { ptr, i64 } %a, i64 %v, 1
  ret { ptr, i64 } %b
}
