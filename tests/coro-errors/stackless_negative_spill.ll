; FINDING: error stackless-layout 16:63
; MESSAGE: in @f, block %entry: the spill-area offset -16 is not in 0..=2147483647
; The spill area at a negative offset from the frame pointer: llcoro used to put it at 0, over
; the front end's own slots.

declare token @llvm.gc.frame.layout(ptr, i32, i32)
declare token @llvm.frame.layout(ptr, i32)
declare void @llvm.gc.frame.save(token, ...)
declare token @llvm.gc.frame.statepoint(...)
declare token @llvm.gc.frame.accessor(token)
declare ptr @llvm.frame.sp(token)
declare { ptr, i64 } @callee(ptr, i64)

define { ptr, i64 } @f(ptr %sp_arg, ptr %sp, i64 %x) {
entry:
  %lay = call token @llvm.gc.frame.layout(ptr %sp, i32 8, i32 -16)
  %tok = call token (...) @llvm.gc.frame.statepoint(ptr @callee, i64 %x, token %lay)
  %a = insertvalue { ptr, i64 } poison, ptr %sp_arg, 0
  %b = insertvalue { ptr, i64 } %a, i64 %x, 1
  ret { ptr, i64 } %b
}
