; tests/retcon/generator.ll in typed pointers (LLVM 14): a generator that fits its buffer and one
; whose frame is allocated.
@fmt = private constant [4 x i8] c"%d\0A\00"
declare i32 @printf(i8*, ...)
declare i8* @malloc(i64)
declare void @free(i8*)

define i8* @allocate(i32 %size) {
  %n = zext i32 %size to i64
  %p = call i8* @malloc(i64 %n)
  %tag = add i32 %size, 1000
  %f = getelementptr [4 x i8], [4 x i8]* @fmt, i32 0, i32 0
  call i32 (i8*, ...) @printf(i8* %f, i32 %tag)
  ret i8* %p
}

define void @deallocate(i8* %p) {
  %f = getelementptr [4 x i8], [4 x i8]* @fmt, i32 0, i32 0
  call i32 (i8*, ...) @printf(i8* %f, i32 -1000)
  call void @free(i8* %p)
  ret void
}

declare { i8*, i32 } @prototype(i8*, i1 zeroext)

define { i8*, i32 } @count(i8* %buffer, i32 %n) {
entry:
  %id = call token @llvm.coro.id.retcon(i32 8, i32 8, i8* %buffer, i8* bitcast ({ i8*, i32 } (i8*, i1)* @prototype to i8*), i8* bitcast (i8* (i32)* @allocate to i8*), i8* bitcast (void (i8*)* @deallocate to i8*))
  %hdl = call i8* @llvm.coro.begin(token %id, i8* null)
  br label %loop

loop:
  %n.val = phi i32 [ %n, %entry ], [ %inc, %resume ]
  %unwind = call i1 (...) @llvm.coro.suspend.retcon.i1(i32 %n.val)
  br i1 %unwind, label %cleanup, label %resume

resume:
  %inc = add i32 %n.val, 1
  br label %loop

cleanup:
  %unused = call i1 @llvm.coro.end(i8* %hdl, i1 false)
  unreachable
}

define { i8*, i32 } @fib(i8* %buffer, i32 %limit) {
entry:
  %id = call token @llvm.coro.id.retcon(i32 8, i32 4, i8* %buffer, i8* bitcast ({ i8*, i32 } (i8*, i1)* @prototype to i8*), i8* bitcast (i8* (i32)* @allocate to i8*), i8* bitcast (void (i8*)* @deallocate to i8*))
  %hdl = call i8* @llvm.coro.begin(token %id, i8* null)
  br label %loop

loop:
  %a = phi i64 [ 0, %entry ], [ %b, %next ]
  %b = phi i64 [ 1, %entry ], [ %c, %next ]
  %k = phi i32 [ 0, %entry ], [ %k1, %next ]
  %a32 = trunc i64 %a to i32
  %unwind = call i1 (...) @llvm.coro.suspend.retcon.i1(i32 %a32)
  br i1 %unwind, label %cleanup, label %next

next:
  %c = add i64 %a, %b
  %k1 = add i32 %k, 1
  %more = icmp slt i32 %k1, %limit
  br i1 %more, label %loop, label %cleanup

cleanup:
  %unused = call i1 @llvm.coro.end(i8* %hdl, i1 false)
  unreachable
}

define i32 @main() {
entry:
  %fmt = getelementptr [4 x i8], [4 x i8]* @fmt, i32 0, i32 0
  %b = alloca [8 x i8], align 8
  %buf = bitcast [8 x i8]* %b to i8*
  %count.p = call i8* @llvm.coro.prepare.retcon(i8* bitcast ({ i8*, i32 } (i8*, i32)* @count to i8*))
  %count = bitcast i8* %count.p to { i8*, i32 } (i8*, i32)*
  %r0 = call { i8*, i32 } %count(i8* %buf, i32 40)
  %c0.p = extractvalue { i8*, i32 } %r0, 0
  %c0 = bitcast i8* %c0.p to { i8*, i32 } (i8*, i1)*
  %v0 = extractvalue { i8*, i32 } %r0, 1
  call i32 (i8*, ...) @printf(i8* %fmt, i32 %v0)
  %r1 = call { i8*, i32 } %c0(i8* %buf, i1 zeroext false)
  %c1.p = extractvalue { i8*, i32 } %r1, 0
  %c1 = bitcast i8* %c1.p to { i8*, i32 } (i8*, i1)*
  %v1 = extractvalue { i8*, i32 } %r1, 1
  call i32 (i8*, ...) @printf(i8* %fmt, i32 %v1)
  %r2 = call { i8*, i32 } %c1(i8* %buf, i1 zeroext false)
  %c2.p = extractvalue { i8*, i32 } %r2, 0
  %c2 = bitcast i8* %c2.p to { i8*, i32 } (i8*, i1)*
  %v2 = extractvalue { i8*, i32 } %r2, 1
  call i32 (i8*, ...) @printf(i8* %fmt, i32 %v2)
  %r3 = call { i8*, i32 } %c2(i8* %buf, i1 zeroext true)
  %c3 = extractvalue { i8*, i32 } %r3, 0
  %done = icmp eq i8* %c3, null
  %d = zext i1 %done to i32
  call i32 (i8*, ...) @printf(i8* %fmt, i32 %d)
  %fib.p = call i8* @llvm.coro.prepare.retcon(i8* bitcast ({ i8*, i32 } (i8*, i32)* @fib to i8*))
  %fib = bitcast i8* %fib.p to { i8*, i32 } (i8*, i32)*
  %f0 = call { i8*, i32 } %fib(i8* %buf, i32 5)
  br label %drive

drive:
  %r = phi { i8*, i32 } [ %f0, %entry ], [ %fn, %body ]
  %cont.p = extractvalue { i8*, i32 } %r, 0
  %end = icmp eq i8* %cont.p, null
  br i1 %end, label %out, label %body

body:
  %cont = bitcast i8* %cont.p to { i8*, i32 } (i8*, i1)*
  %v = extractvalue { i8*, i32 } %r, 1
  call i32 (i8*, ...) @printf(i8* %fmt, i32 %v)
  %fn = call { i8*, i32 } %cont(i8* %buf, i1 zeroext false)
  br label %drive

out:
  ret i32 0
}

declare token @llvm.coro.id.retcon(i32, i32, i8*, i8*, i8*, i8*)
declare i8* @llvm.coro.begin(token, i8*)
declare i1 @llvm.coro.suspend.retcon.i1(...)
declare i1 @llvm.coro.end(i8*, i1)
declare i8* @llvm.coro.prepare.retcon(i8*)
