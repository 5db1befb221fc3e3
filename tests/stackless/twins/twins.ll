; Two statepoints in the arms of an `if`, each followed by the same code, joining after. Without
; anything else in the blocks after the calls, LLVM at -O2 would sink their common code into the
; join, fold both (now empty) blocks into it and point both return-address keys at the join: two
; call sites with one key, which the runtime refuses (main.c). llcoro starts each continuation
; with an empty inline asm statement naming its call site, which the optimizer keeps.

declare token @llvm.gc.frame.layout(ptr, i32, i32)
declare token @llvm.frame.layout(ptr, i32)
declare i32 @llvm.gc.frame.spillsz()
declare void @llvm.gc.frame.save(token, ...)
declare token @llvm.gc.frame.statepoint(...)
declare token @llvm.gc.frame.accessor(token)
declare ptr @llvm.gc.frame.load.p0(token, i32)
declare i64 @llvm.gc.frame.result.i64(token)
declare { ptr, i64 } @llvm.frame.return.i64(token, i64)
declare ptr @frame_for(i32)
declare { ptr, i64 } @probe(ptr, i64)

define { ptr, i64 } @pick(ptr %sp_arg, i1 %c, i64 %x) {
entry:
  %spill = call i32 @llvm.gc.frame.spillsz()
  %size = add i32 %spill, 16
  %sp = call ptr @frame_for(i32 %size)
  %lay = call token @llvm.gc.frame.layout(ptr %sp, i32 8, i32 16)
  call void (token, ...) @llvm.gc.frame.save(token %lay, ptr %sp_arg, i32 0)
  br i1 %c, label %a, label %b

a:
  %ta = call token (...) @llvm.gc.frame.statepoint(ptr @probe, i64 %x, token %lay)
  %ra = call i64 @llvm.gc.frame.result.i64(token %ta)
  %aa = call token @llvm.gc.frame.accessor(token %ta)
  %ca = call ptr @llvm.gc.frame.load.p0(token %aa, i32 0)
  br label %join

b:
  %tb = call token (...) @llvm.gc.frame.statepoint(ptr @probe, i64 %x, token %lay)
  %rb = call i64 @llvm.gc.frame.result.i64(token %tb)
  %ab = call token @llvm.gc.frame.accessor(token %tb)
  %cb = call ptr @llvm.gc.frame.load.p0(token %ab, i32 0)
  br label %join

join:
  %r = phi i64 [ %ra, %a ], [ %rb, %b ]
  %caller = phi ptr [ %ca, %a ], [ %cb, %b ]
  %y = add i64 %r, %x
  %rl = call token @llvm.frame.layout(ptr %caller, i32 8)
  %ret = call { ptr, i64 } @llvm.frame.return.i64(token %rl, i64 %y)
  ret { ptr, i64 } %ret
}
