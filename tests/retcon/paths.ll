; Returned-continuation coroutines whose suspends sit on different paths: a yield-once accessor
; with one suspend per branch (each continuation its own function), and a swiftcc generator whose
; values of several types (i8, double, ptr, i64) live across two suspends in a nested loop,
; resumed with two values, whose ramp may reach coro.end without suspending (a null
; continuation; the allocated frame is freed there). (LLVM 19's CoroSplit writes a broken ramp
; when a retcon.once ramp reaches a coro.end with results, so that is not tested here.)
@fmt = private constant [4 x i8] c"%d\0A\00"
@fmtf = private constant [6 x i8] c"%.2f\0A\00"
declare i32 @printf(ptr, ...)
declare ptr @malloc(i64)
declare void @free(ptr)

define ptr @allocate(i64 %size) {
  %p = call ptr @malloc(i64 %size)
  call i32 (ptr, ...) @printf(ptr @fmt, i32 1000)
  ret ptr %p
}

define void @deallocate(ptr %p) {
  call i32 (ptr, ...) @printf(ptr @fmt, i32 -1000)
  call void @free(ptr %p)
  ret void
}

declare i32 @once_proto(ptr, i1 zeroext)
declare swiftcc { ptr, i32 } @gen_proto(ptr, i32, i1 zeroext)

; Positive *cell: lends cell+1 and on commit stores 0; else lends 0 and on commit stores 10.
; Its frame (cell, tag) does not fit 8 bytes.
define { ptr, i32 } @branchy(ptr %buffer, ptr %cell, i64 %tag) {
entry:
  %id = call token @llvm.coro.id.retcon.once(i32 8, i32 8, ptr %buffer, ptr @once_proto, ptr @allocate, ptr @deallocate)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr null)
  %v = load i32, ptr %cell, align 4
  %pos = icmp sgt i32 %v, 0
  br i1 %pos, label %pos.s, label %neg.s

pos.s:
  %v1 = add i32 %v, 1
  %a0 = call i1 (...) @llvm.coro.suspend.retcon.i1(i32 %v1)
  br i1 %a0, label %end.abort, label %pos.c

pos.c:
  store i32 0, ptr %cell, align 4
  br label %end.commit

neg.s:
  %a1 = call i1 (...) @llvm.coro.suspend.retcon.i1(i32 0)
  br i1 %a1, label %end.abort, label %neg.c

neg.c:
  store i32 10, ptr %cell, align 4
  %t32 = trunc i64 %tag to i32
  br label %end.commit

end.commit:
  %r = phi i32 [ 1, %pos.c ], [ %t32, %neg.c ]
  br label %end

end.abort:
  br label %end

; One coro.end for every path (LLVM's CoroSplit aborts on two that are not unwind ends).
end:
  %res = phi i32 [ %r, %end.commit ], [ -1, %end.abort ]
  %tok = call token (...) @llvm.coro.end.results(i32 %res)
  %u = call i1 @llvm.coro.end(ptr %hdl, i1 false, token %tok)
  unreachable
}

; for i in 0..rows: for j in 0..cols: yield (i * 10 + j) then (scale * j); resumed with (add, stop).
define swiftcc { ptr, i32 } @grid(ptr %buffer, i8 %rows, i8 %cols, double %scale, ptr %sink) {
entry:
  %id = call token @llvm.coro.id.retcon(i32 16, i32 8, ptr %buffer, ptr @gen_proto, ptr @allocate, ptr @deallocate)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr null)
  %empty = icmp eq i8 %rows, 0
  br i1 %empty, label %finish, label %outer

outer:
  %i = phi i8 [ 0, %entry ], [ %i1, %outer.next ]
  %acc = phi i64 [ 0, %entry ], [ %acc2, %outer.next ]
  br label %inner

inner:
  %j = phi i8 [ 0, %outer ], [ %j1, %inner.next ]
  %acc.in = phi i64 [ %acc, %outer ], [ %acc2, %inner.next ]
  %i32 = zext i8 %i to i32
  %j32 = zext i8 %j to i32
  %ten = mul i32 %i32, 10
  %val = add i32 %ten, %j32
  %r0 = call { i32, i1 } (...) @llvm.coro.suspend.retcon.sl_i32i1s(i32 %val)
  %add0 = extractvalue { i32, i1 } %r0, 0
  %stop0 = extractvalue { i32, i1 } %r0, 1
  br i1 %stop0, label %finish, label %second

second:
  %jd = uitofp i8 %j to double
  %sc = fmul double %scale, %jd
  %sci = fptosi double %sc to i32
  %r1 = call { i32, i1 } (...) @llvm.coro.suspend.retcon.sl_i32i1s(i32 %sci)
  %add1 = extractvalue { i32, i1 } %r1, 0
  %stop1 = extractvalue { i32, i1 } %r1, 1
  br i1 %stop1, label %finish, label %inner.next

inner.next:
  %s = add i32 %add0, %add1
  %s64 = sext i32 %s to i64
  %acc2 = add i64 %acc.in, %s64
  %j1 = add i8 %j, 1
  %jm = icmp ult i8 %j1, %cols
  br i1 %jm, label %inner, label %outer.next

outer.next:
  %i1 = add i8 %i, 1
  %im = icmp ult i8 %i1, %rows
  br i1 %im, label %outer, label %finish

finish:
  %accf = phi i64 [ 0, %entry ], [ %acc.in, %inner ], [ %acc.in, %second ], [ %acc2, %outer.next ]
  store i64 %accf, ptr %sink, align 8
  %u = call i1 @llvm.coro.end(ptr %hdl, i1 false, token none)
  unreachable
}

define void @lend(ptr %buf, i32 %init, i1 %abort) {
  %cell = alloca i32, align 4
  store i32 %init, ptr %cell, align 4
  %f = call ptr @llvm.coro.prepare.retcon(ptr @branchy)
  %r = call { ptr, i32 } %f(ptr %buf, ptr %cell, i64 77)
  %c = extractvalue { ptr, i32 } %r, 0
  %null = icmp eq ptr %c, null
  br i1 %null, label %out, label %resume

resume:
  %y = extractvalue { ptr, i32 } %r, 1
  call i32 (ptr, ...) @printf(ptr @fmt, i32 %y)
  %res = call i32 %c(ptr %buf, i1 zeroext %abort)
  call i32 (ptr, ...) @printf(ptr @fmt, i32 %res)
  br label %out

out:
  %after = load i32, ptr %cell, align 4
  call i32 (ptr, ...) @printf(ptr @fmt, i32 %after)
  ret void
}

define void @drive(ptr %buf, i8 %rows, i8 %cols, i32 %stop.after) {
entry:
  %sink = alloca i64, align 8
  store i64 -1, ptr %sink, align 8
  %g = call ptr @llvm.coro.prepare.retcon(ptr @grid)
  %r0 = call swiftcc { ptr, i32 } %g(ptr %buf, i8 %rows, i8 %cols, double 2.5, ptr %sink)
  br label %loop

loop:
  %r = phi { ptr, i32 } [ %r0, %entry ], [ %rn, %body ]
  %n = phi i32 [ 0, %entry ], [ %n1, %body ]
  %c = extractvalue { ptr, i32 } %r, 0
  %end = icmp eq ptr %c, null
  br i1 %end, label %out, label %body

body:
  %v = extractvalue { ptr, i32 } %r, 1
  call i32 (ptr, ...) @printf(ptr @fmt, i32 %v)
  %n1 = add i32 %n, 1
  %stop = icmp eq i32 %n1, %stop.after
  %rn = call swiftcc { ptr, i32 } %c(ptr %buf, i32 %n1, i1 zeroext %stop)
  br label %loop

out:
  %s = load i64, ptr %sink, align 8
  %s32 = trunc i64 %s to i32
  call i32 (ptr, ...) @printf(ptr @fmt, i32 %s32)
  ret void
}

define i32 @main() {
  %buf = alloca [16 x i8], align 8
  call void @lend(ptr %buf, i32 5, i1 false)
  call void @lend(ptr %buf, i32 5, i1 true)
  call void @lend(ptr %buf, i32 -3, i1 false)
  call void @drive(ptr %buf, i8 2, i8 3, i32 0)
  call void @drive(ptr %buf, i8 3, i8 2, i32 5)
  call void @drive(ptr %buf, i8 0, i8 2, i32 0)
  ret i32 0
}

declare token @llvm.coro.id.retcon(i32, i32, ptr, ptr, ptr, ptr)
declare token @llvm.coro.id.retcon.once(i32, i32, ptr, ptr, ptr, ptr)
declare ptr @llvm.coro.begin(token, ptr)
declare i1 @llvm.coro.suspend.retcon.i1(...)
declare { i32, i1 } @llvm.coro.suspend.retcon.sl_i32i1s(...)
declare i1 @llvm.coro.end(ptr, i1, token)
declare ptr @llvm.coro.prepare.retcon(ptr)
