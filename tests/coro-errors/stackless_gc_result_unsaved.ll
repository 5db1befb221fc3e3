; FINDING: error stackless-gc-pointer 21:3
; MESSAGE: in @f, block %entry: the GC pointer %obj (addrspace(1)) is live across a statepoint without a slot of its own
; The GC pointer a first statepoint returns is live across a second one (in another block) without
; a slot. Refused at the gc.frame.result that defines it, in the user's block: not at 1:1 nor in
; a block llcoro made when it split the calls.

declare token @llvm.gc.frame.layout(ptr, i32, i32)
declare token @llvm.frame.layout(ptr, i32)
declare void @llvm.gc.frame.save(token, ...)
declare token @llvm.gc.frame.statepoint(...)
declare token @llvm.gc.frame.accessor(token)
declare ptr @llvm.frame.sp(token)
declare ptr addrspace(1) @llvm.gc.frame.result.p1(token)
declare { ptr, ptr addrspace(1) } @gc_new(ptr)
declare { ptr, i64 } @callee(ptr, i64)

define { ptr, i64 } @f(ptr %sp_arg, ptr %sp, i64 %x) {
entry:
  %lay = call token @llvm.gc.frame.layout(ptr %sp, i32 8, i32 16)
  %t1 = call token (...) @llvm.gc.frame.statepoint(ptr @gc_new, token %lay)
  %obj = call ptr addrspace(1) @llvm.gc.frame.result.p1(token %t1)
  %a1 = call token @llvm.gc.frame.accessor(token %t1)
  br label %again

again:
  %t2 = call token (...) @llvm.gc.frame.statepoint(ptr @callee, i64 %x, token %a1)
  %v = load i64, ptr addrspace(1) %obj
  %a = insertvalue { ptr, i64 } poison, ptr %sp_arg, 0
  %b = insertvalue { ptr, i64 } %a, i64 %v, 1
  ret { ptr, i64 } %b
}
