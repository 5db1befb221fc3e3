; fib with every frame in the collected heap: each activation that calls allocates its frame through
; llcoro_gc_alloc_frame, which collects when the small heap is full and moves every frame on the
; chain. The first call's result (%a) is defined after a call and live across the second one, so
; llcoro must spill it into the frame the first call returned, not the one it was called with.

declare token @llvm.gc.frame.layout(ptr, i32, i32)
declare token @llvm.frame.layout(ptr, i32)
declare i32 @llvm.gc.frame.spillsz()
declare void @llvm.gc.frame.save(token, ...)
declare token @llvm.gc.frame.statepoint(...)
declare token @llvm.gc.frame.accessor(token)
declare ptr @llvm.gc.frame.load.p0(token, i32)
declare i64 @llvm.gc.frame.result.i64(token)
declare { ptr, i64 } @llvm.frame.return.i64(token, i64)
declare { ptr, ptr } @llcoro_gc_alloc_frame(ptr, i64)

define { ptr, i64 } @gcfib(ptr %sp_arg, i64 %n) {
entry:
  %small = icmp slt i64 %n, 2
  br i1 %small, label %base, label %rec

base:
  %bl = call token @llvm.frame.layout(ptr %sp_arg, i32 8)
  %br = call { ptr, i64 } @llvm.frame.return.i64(token %bl, i64 %n)
  ret { ptr, i64 } %br

rec:
  %spill = call i32 @llvm.gc.frame.spillsz()
  %size32 = add i32 %spill, 16
  %size = zext i32 %size32 to i64
  %fa = call { ptr, ptr } @llcoro_gc_alloc_frame(ptr %sp_arg, i64 %size)
  %caller = extractvalue { ptr, ptr } %fa, 0
  %sp = extractvalue { ptr, ptr } %fa, 1
  %lay = call token @llvm.gc.frame.layout(ptr %sp, i32 8, i32 16)
  call void (token, ...) @llvm.gc.frame.save(token %lay, ptr %caller, i32 0)
  %n1 = sub i64 %n, 1
  %t1 = call token (...) @llvm.gc.frame.statepoint(ptr @gcfib, i64 %n1, token %lay)
  %a = call i64 @llvm.gc.frame.result.i64(token %t1)
  %acc1 = call token @llvm.gc.frame.accessor(token %t1)
  %n2 = sub i64 %n, 2
  %t2 = call token (...) @llvm.gc.frame.statepoint(ptr @gcfib, i64 %n2, token %acc1)
  %b = call i64 @llvm.gc.frame.result.i64(token %t2)
  %acc2 = call token @llvm.gc.frame.accessor(token %t2)
  %back = call ptr @llvm.gc.frame.load.p0(token %acc2, i32 0)
  %sum = add i64 %a, %b
  %rl = call token @llvm.frame.layout(ptr %back, i32 8)
  %r = call { ptr, i64 } @llvm.frame.return.i64(token %rl, i64 %sum)
  ret { ptr, i64 } %r
}
