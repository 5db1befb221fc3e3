; FINDING: error stackless-slot-overlap 15:3
; MESSAGE: in @f, block %entry: this save's bytes 12..16 overlap another save's bytes 8..16
; Two explicit saves into one frame whose bytes overlap: an i64 at 8..16 and an i32 at 12..16.

declare token @llvm.gc.frame.layout(ptr, i32, i32)
declare token @llvm.gc.frame.statepoint(...)
declare void @llvm.gc.frame.save(token, ...)
declare i32 @llvm.gc.frame.result.i32(token)
declare { ptr, i32 } @callee(ptr, i32)

define { ptr, i32 } @f(ptr %sp_arg, ptr %sp, i64 %x, i32 %y) {
entry:
  %lay = call token @llvm.gc.frame.layout(ptr %sp, i32 0, i32 32)
  call void (token, ...) @llvm.gc.frame.save(token %lay, i64 %x, i32 8)
  call void (token, ...) @llvm.gc.frame.save(token %lay, i32 %y, i32 12)
  %tok = call token (...) @llvm.gc.frame.statepoint(ptr @callee, i32 1, token %lay)
  %r = call i32 @llvm.gc.frame.result.i32(token %tok)
  %a = insertvalue { ptr, i32 } poison, ptr %sp_arg, 0
  %b = insertvalue { ptr, i32 } %a, i32 %r, 1
  ret { ptr, i32 } %b
}
