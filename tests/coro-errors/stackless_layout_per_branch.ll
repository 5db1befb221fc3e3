; FINDING: error stackless-layout 22:3
; MESSAGE: in @f, block %one: no frame layout of this function comes before all of its statepoints
; Each branch lays the frame out before its own call: no layout comes before both calls, so the
; frame-pointer slot reloads read is not set on every path. Refused at the first statepoint (not
; at 1:1, where llcoro's own call made in its place used to put it).

declare token @llvm.gc.frame.layout(ptr, i32, i32)
declare token @llvm.frame.layout(ptr, i32)
declare void @llvm.gc.frame.save(token, ...)
declare token @llvm.gc.frame.statepoint(...)
declare token @llvm.gc.frame.accessor(token)
declare ptr @llvm.frame.sp(token)
declare i64 @llvm.gc.frame.result.i64(token)
declare { ptr, i64 } @callee(ptr, i64)

define { ptr, i64 } @f(ptr %sp_arg, ptr %sp, i64 %x, i1 %c) {
entry:
  br i1 %c, label %one, label %two

one:
  %l1 = call token @llvm.gc.frame.layout(ptr %sp, i32 8, i32 16)
  %t1 = call token (...) @llvm.gc.frame.statepoint(ptr @callee, i64 %x, token %l1)
  %r1 = call i64 @llvm.gc.frame.result.i64(token %t1)
  br label %join

two:
  %l2 = call token @llvm.gc.frame.layout(ptr %sp, i32 8, i32 16)
  %t2 = call token (...) @llvm.gc.frame.statepoint(ptr @callee, i64 %x, token %l2)
  %r2 = call i64 @llvm.gc.frame.result.i64(token %t2)
  br label %join

join:
  %r = phi i64 [ %r1, %one ], [ %r2, %two ]
  %v = add i64 %r, %x
  %a = insertvalue { ptr, i64 } poison, ptr %sp_arg, 0
  %b = insertvalue { ptr, i64 } %a, i64 %v, 1
  ret { ptr, i64 } %b
}
