; ackermann with every frame in the collected heap. Its two outer calls continue in code that does
; the same thing, which LLVM at -O2 would fold into one block, giving both calls one key, unless
; llcoro keeps each continuation distinct; main.c checks that the runtime accepts the table.

declare token @llvm.gc.frame.layout(ptr, i32, i32)
declare token @llvm.frame.layout(ptr, i32)
declare i32 @llvm.gc.frame.spillsz()
declare void @llvm.gc.frame.save(token, ...)
declare token @llvm.gc.frame.statepoint(...)
declare token @llvm.gc.frame.accessor(token)
declare ptr @llvm.frame.sp(token)
declare i64 @llvm.gc.frame.result.i64(token)
declare { ptr, i64 } @llvm.frame.return.i64(token, i64)
declare { ptr, ptr } @llcoro_gc_alloc_frame(ptr, i64)

; ack(m, n): m == 0 -> n + 1; n == 0 -> ack(m - 1, 1); else ack(m - 1, ack(m, n - 1)).
define { ptr, i64 } @gcack(ptr %sp_arg, i64 %m, i64 %n) {
entry:
  %m0 = icmp eq i64 %m, 0
  br i1 %m0, label %done, label %calls

done:
  %n1 = add i64 %n, 1
  %dl = call token @llvm.frame.layout(ptr %sp_arg, i32 8)
  %dr = call { ptr, i64 } @llvm.frame.return.i64(token %dl, i64 %n1)
  ret { ptr, i64 } %dr

calls:
  %spill = call i32 @llvm.gc.frame.spillsz()
  %size32 = add i32 %spill, 16
  %size = zext i32 %size32 to i64
  %fa = call { ptr, ptr } @llcoro_gc_alloc_frame(ptr %sp_arg, i64 %size)
  %caller = extractvalue { ptr, ptr } %fa, 0
  %sp = extractvalue { ptr, ptr } %fa, 1
  %lay = call token @llvm.gc.frame.layout(ptr %sp, i32 8, i32 16)
  call void (token, ...) @llvm.gc.frame.save(token %lay, ptr %caller, i32 0)
  %mm1 = sub i64 %m, 1
  %n0 = icmp eq i64 %n, 0
  br i1 %n0, label %one, label %two

one:
  %t1 = call token (...) @llvm.gc.frame.statepoint(ptr @gcack, i64 %mm1, i64 1, token %lay)
  %r1 = call i64 @llvm.gc.frame.result.i64(token %t1)
  %a1 = call token @llvm.gc.frame.accessor(token %t1)
  %f1 = call ptr @llvm.frame.sp(token %a1)
  br label %out

two:
  %nm1 = sub i64 %n, 1
  %t2 = call token (...) @llvm.gc.frame.statepoint(ptr @gcack, i64 %m, i64 %nm1, token %lay)
  %inner = call i64 @llvm.gc.frame.result.i64(token %t2)
  %a2 = call token @llvm.gc.frame.accessor(token %t2)
  %t3 = call token (...) @llvm.gc.frame.statepoint(ptr @gcack, i64 %mm1, i64 %inner, token %a2)
  %r3 = call i64 @llvm.gc.frame.result.i64(token %t3)
  %a3 = call token @llvm.gc.frame.accessor(token %t3)
  %f3 = call ptr @llvm.frame.sp(token %a3)
  br label %out

out:
  %fr = phi ptr [ %f1, %one ], [ %f3, %two ]
  %res = phi i64 [ %r1, %one ], [ %r3, %two ]
  %back = load ptr, ptr %fr
  %ol = call token @llvm.frame.layout(ptr %back, i32 8)
  %or = call { ptr, i64 } @llvm.frame.return.i64(token %ol, i64 %res)
  ret { ptr, i64 } %or
}
