; FINDING: error stackless-load-token 17:47
; MESSAGE: in @f, block %entry: this frame load reads %lay (token), not an accessor
; gc.frame.load reads the relocated frame an accessor names; this one reads through the layout
; token, which after the call names a frame the collector may have moved.

declare token @llvm.gc.frame.layout(ptr, i32, i32)
declare token @llvm.gc.frame.statepoint(...)
declare void @llvm.gc.frame.save(token, ...)
declare i32 @llvm.gc.frame.load.i32(token, i32)
declare { ptr, i32 } @callee(ptr, i32)

define { ptr, i32 } @f(ptr %sp_arg, ptr %sp, i32 %x) {
entry:
  %lay = call token @llvm.gc.frame.layout(ptr %sp, i32 0, i32 16)
  call void (token, ...) @llvm.gc.frame.save(token %lay, i32 %x, i32 8)
  %tok = call token (...) @llvm.gc.frame.statepoint(ptr @callee, i32 1, token %lay)
  %v = call i32 @llvm.gc.frame.load.i32(token %lay, i32 8)
  %a = insertvalue { ptr, i32 } poison, ptr %sp_arg, 0
  %b = insertvalue { ptr, i32 } %a, i32 %v, 1
  ret { ptr, i32 } %b
}
