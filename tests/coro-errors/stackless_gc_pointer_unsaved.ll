; FINDING: error stackless-gc-pointer 15:3
; MESSAGE: in @f, block %entry: the GC pointer %obj (addrspace(1)) is live across a statepoint without a slot of its own
; A GC pointer (addrspace(1)) is live across a statepoint but the front end gave it no slot with
; gc.frame.save: the collector could neither find it nor update it when it moves the object.

declare token @llvm.gc.frame.layout(ptr, i32, i32)
declare token @llvm.gc.frame.statepoint(...)
declare i32 @llvm.gc.frame.result.i32(token)
declare ptr addrspace(1) @gc_new()
declare { ptr, i32 } @callee(ptr, i32)
declare void @use(ptr addrspace(1))

define { ptr, i32 } @f(ptr %sp_arg, ptr %sp) {
entry:
  %obj = call ptr addrspace(1) @gc_new()
  %lay = call token @llvm.gc.frame.layout(ptr %sp, i32 0, i32 16)
  %tok = call token (...) @llvm.gc.frame.statepoint(ptr @callee, i32 1, token %lay)
  %r = call i32 @llvm.gc.frame.result.i32(token %tok)
  call void @use(ptr addrspace(1) %obj)
  %a = insertvalue { ptr, i32 } poison, ptr %sp_arg, 0
  %b = insertvalue { ptr, i32 } %a, i32 %r, 1
  ret { ptr, i32 } %b
}
