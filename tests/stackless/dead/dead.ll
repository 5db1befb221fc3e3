; Calls in code the optimizer proves unreachable (found by tests/stackless/gen, seed 33): the branch
; on `%x - %x` never runs, so at -O2 LLVM deletes its blocks, with the continuations of the two
; calls there, and their keys become the constant LLVM gives a deleted block (`inttoptr (i32 1 to
; ptr)`): two sites with one key. The runtime leaves such sites out of its map instead of refusing
; the whole table, so the program runs.

declare token @llvm.gc.frame.layout(ptr, i32, i32)
declare token @llvm.frame.layout(ptr, i32)
declare i32 @llvm.gc.frame.spillsz()
declare void @llvm.gc.frame.save(token, ...)
declare token @llvm.gc.frame.statepoint(...)
declare token @llvm.gc.frame.accessor(token)
declare ptr @llvm.frame.sp(token)
declare ptr @llvm.gc.frame.load.p0(token, i32)
declare i64 @llvm.gc.frame.result.i64(token)
declare { ptr, i64 } @llvm.frame.return.i64(token, i64)
declare { ptr, ptr } @llcoro_gc_alloc_frame(ptr, i64)
declare { ptr, i64 } @twice(ptr, i64)

define { ptr, i64 } @f(ptr %sp_arg, i64 %x) {
entry:
  %spill = call i32 @llvm.gc.frame.spillsz()
  %size32 = add i32 %spill, 16
  %size = zext i32 %size32 to i64
  %fa = call { ptr, ptr } @llcoro_gc_alloc_frame(ptr %sp_arg, i64 %size)
  %caller = extractvalue { ptr, ptr } %fa, 0
  %sp = extractvalue { ptr, ptr } %fa, 1
  %lay = call token @llvm.gc.frame.layout(ptr %sp, i32 8, i32 16)
  call void (token, ...) @llvm.gc.frame.save(token %lay, ptr %caller, i32 0)
  %zero = sub i64 %x, %x
  %never = trunc i64 %zero to i1
  br i1 %never, label %dead, label %live

dead:
  %t1 = call token (...) @llvm.gc.frame.statepoint(ptr @twice, i64 %x, token %lay)
  %r1 = call i64 @llvm.gc.frame.result.i64(token %t1)
  %a1 = call token @llvm.gc.frame.accessor(token %t1)
  %t2 = call token (...) @llvm.gc.frame.statepoint(ptr @twice, i64 %r1, token %a1)
  %r2 = call i64 @llvm.gc.frame.result.i64(token %t2)
  %a2 = call token @llvm.gc.frame.accessor(token %t2)
  %s2 = call ptr @llvm.frame.sp(token %a2)
  br label %join

live:
  %t3 = call token (...) @llvm.gc.frame.statepoint(ptr @twice, i64 %x, token %lay)
  %r3 = call i64 @llvm.gc.frame.result.i64(token %t3)
  %a3 = call token @llvm.gc.frame.accessor(token %t3)
  %s3 = call ptr @llvm.frame.sp(token %a3)
  br label %join

join:
  %fp = phi ptr [ %s2, %dead ], [ %s3, %live ]
  %r = phi i64 [ %r2, %dead ], [ %r3, %live ]
  %k = add i64 %r, %x
  %back = load ptr, ptr %fp
  %rl = call token @llvm.frame.layout(ptr %back, i32 8)
  %ret = call { ptr, i64 } @llvm.frame.return.i64(token %rl, i64 %k)
  ret { ptr, i64 } %ret
}
