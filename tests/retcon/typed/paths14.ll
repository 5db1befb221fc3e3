; tests/retcon/paths.ll in typed pointers (LLVM 14), with its own expected output: a yield-once
; accessor with a suspend on each branch (LLVM 14 has no coro.end.results, so the continuation
; prints its result before coro.end frees the frame, and returns void), and a swiftcc generator
; with values of several types across two suspends in a nested loop, resumed with two values.
; Not here: a ramp that reaches coro.end without suspending: LLVM 14 leaves `unreachable` after it
; in the ramp and drops that path (llcoro returns a null continuation, as LLVM 19 and 22 do).
@fmt = private constant [4 x i8] c"%d\0A\00"
declare i32 @printf(i8*, ...)
declare i8* @malloc(i64)
declare void @free(i8*)

define i8* @allocate(i64 %size) {
  %p = call i8* @malloc(i64 %size)
  %f = getelementptr [4 x i8], [4 x i8]* @fmt, i32 0, i32 0
  call i32 (i8*, ...) @printf(i8* %f, i32 1000)
  ret i8* %p
}

define void @deallocate(i8* %p) {
  %f = getelementptr [4 x i8], [4 x i8]* @fmt, i32 0, i32 0
  call i32 (i8*, ...) @printf(i8* %f, i32 -1000)
  call void @free(i8* %p)
  ret void
}

define void @show(i32 %v) {
  %f = getelementptr [4 x i8], [4 x i8]* @fmt, i32 0, i32 0
  call i32 (i8*, ...) @printf(i8* %f, i32 %v)
  ret void
}

declare void @once_proto(i8*, i1 zeroext)
declare swiftcc { i8*, i32 } @gen_proto(i8*, i32, i1 zeroext)

define { i8*, i32 } @branchy(i8* %buffer, i32* %cell, i64 %tag) {
entry:
  %id = call token @llvm.coro.id.retcon.once(i32 8, i32 8, i8* %buffer, i8* bitcast (void (i8*, i1)* @once_proto to i8*), i8* bitcast (i8* (i64)* @allocate to i8*), i8* bitcast (void (i8*)* @deallocate to i8*))
  %hdl = call i8* @llvm.coro.begin(token %id, i8* null)
  %v = load i32, i32* %cell, align 4
  %pos = icmp sgt i32 %v, 0
  br i1 %pos, label %pos.s, label %neg.s

pos.s:
  %v1 = add i32 %v, 1
  %a0 = call i1 (...) @llvm.coro.suspend.retcon.i1(i32 %v1)
  br i1 %a0, label %end.abort, label %pos.c

pos.c:
  store i32 0, i32* %cell, align 4
  br label %end.commit

neg.s:
  %a1 = call i1 (...) @llvm.coro.suspend.retcon.i1(i32 0)
  br i1 %a1, label %end.abort, label %neg.c

neg.c:
  store i32 10, i32* %cell, align 4
  %t32 = trunc i64 %tag to i32
  br label %end.commit

end.commit:
  %r = phi i32 [ 1, %pos.c ], [ %t32, %neg.c ]
  br label %end

end.abort:
  br label %end

end:
  %res = phi i32 [ %r, %end.commit ], [ -1, %end.abort ]
  call void @show(i32 %res)
  %u = call i1 @llvm.coro.end(i8* %hdl, i1 false)
  unreachable
}

define swiftcc { i8*, i32 } @grid(i8* %buffer, i8 %rows, i8 %cols, double %scale, i64* %sink) {
entry:
  %id = call token @llvm.coro.id.retcon(i32 16, i32 8, i8* %buffer, i8* bitcast ({ i8*, i32 } (i8*, i32, i1)* @gen_proto to i8*), i8* bitcast (i8* (i64)* @allocate to i8*), i8* bitcast (void (i8*)* @deallocate to i8*))
  %hdl = call i8* @llvm.coro.begin(token %id, i8* null)
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
  store i64 %accf, i64* %sink, align 8
  %u = call i1 @llvm.coro.end(i8* %hdl, i1 false)
  unreachable
}

define void @lend(i8* %buf, i32 %init, i1 %abort) {
  %cell = alloca i32, align 4
  store i32 %init, i32* %cell, align 4
  %fp = call i8* @llvm.coro.prepare.retcon(i8* bitcast ({ i8*, i32 } (i8*, i32*, i64)* @branchy to i8*))
  %f = bitcast i8* %fp to { i8*, i32 } (i8*, i32*, i64)*
  %r = call { i8*, i32 } %f(i8* %buf, i32* %cell, i64 77)
  %cp = extractvalue { i8*, i32 } %r, 0
  %null = icmp eq i8* %cp, null
  br i1 %null, label %out, label %resume

resume:
  %y = extractvalue { i8*, i32 } %r, 1
  call void @show(i32 %y)
  %c = bitcast i8* %cp to void (i8*, i1)*
  call void %c(i8* %buf, i1 zeroext %abort)
  br label %out

out:
  %after = load i32, i32* %cell, align 4
  call void @show(i32 %after)
  ret void
}

define void @drive(i8* %buf, i8 %rows, i8 %cols, i32 %stop.after) {
entry:
  %sink = alloca i64, align 8
  store i64 -1, i64* %sink, align 8
  %gp = call i8* @llvm.coro.prepare.retcon(i8* bitcast ({ i8*, i32 } (i8*, i8, i8, double, i64*)* @grid to i8*))
  %g = bitcast i8* %gp to { i8*, i32 } (i8*, i8, i8, double, i64*)*
  %r0 = call swiftcc { i8*, i32 } %g(i8* %buf, i8 %rows, i8 %cols, double 2.5, i64* %sink)
  br label %loop

loop:
  %r = phi { i8*, i32 } [ %r0, %entry ], [ %rn, %body ]
  %n = phi i32 [ 0, %entry ], [ %n1, %body ]
  %cp = extractvalue { i8*, i32 } %r, 0
  %end = icmp eq i8* %cp, null
  br i1 %end, label %out, label %body

body:
  %v = extractvalue { i8*, i32 } %r, 1
  call void @show(i32 %v)
  %n1 = add i32 %n, 1
  %stop = icmp eq i32 %n1, %stop.after
  %c = bitcast i8* %cp to { i8*, i32 } (i8*, i32, i1)*
  %rn = call swiftcc { i8*, i32 } %c(i8* %buf, i32 %n1, i1 zeroext %stop)
  br label %loop

out:
  %s = load i64, i64* %sink, align 8
  %s32 = trunc i64 %s to i32
  call void @show(i32 %s32)
  ret void
}

define i32 @main() {
  %b = alloca [16 x i8], align 8
  %buf = bitcast [16 x i8]* %b to i8*
  call void @lend(i8* %buf, i32 5, i1 false)
  call void @lend(i8* %buf, i32 5, i1 true)
  call void @lend(i8* %buf, i32 -3, i1 false)
  call void @drive(i8* %buf, i8 2, i8 3, i32 0)
  call void @drive(i8* %buf, i8 3, i8 2, i32 5)
  ret i32 0
}

declare token @llvm.coro.id.retcon(i32, i32, i8*, i8*, i8*, i8*)
declare token @llvm.coro.id.retcon.once(i32, i32, i8*, i8*, i8*, i8*)
declare i8* @llvm.coro.begin(token, i8*)
declare i1 @llvm.coro.suspend.retcon.i1(...)
declare { i32, i1 } @llvm.coro.suspend.retcon.sl_i32i1s(...)
declare i1 @llvm.coro.end(i8*, i1)
declare i8* @llvm.coro.prepare.retcon(i8*)
