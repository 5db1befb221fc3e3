; A generator (coro.id.retcon) yielding n, n+1, ... until the caller asks it to stop, and a frame
; that overflows the caller's buffer.
@fmt = private constant [4 x i8] c"%d\0A\00"
declare i32 @printf(ptr, ...)
declare ptr @malloc(i64)
declare void @free(ptr)

define ptr @allocate(i32 %size) {
  %n = zext i32 %size to i64
  %p = call ptr @malloc(i64 %n)
  %tag = add i32 %size, 1000
  call i32 (ptr, ...) @printf(ptr @fmt, i32 %tag)
  ret ptr %p
}

define void @deallocate(ptr %p) {
  call i32 (ptr, ...) @printf(ptr @fmt, i32 -1000)
  call void @free(ptr %p)
  ret void
}

declare { ptr, i32 } @prototype(ptr, i1 zeroext)

; Fits: 8 bytes, align 8 (only %n.val crosses a suspend).
define { ptr, i32 } @count(ptr %buffer, i32 %n) {
entry:
  %id = call token @llvm.coro.id.retcon(i32 8, i32 8, ptr %buffer, ptr @prototype, ptr @allocate, ptr @deallocate)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr null)
  br label %loop

loop:
  %n.val = phi i32 [ %n, %entry ], [ %inc, %resume ]
  %unwind = call i1 (...) @llvm.coro.suspend.retcon.i1(i32 %n.val)
  br i1 %unwind, label %cleanup, label %resume

resume:
  %inc = add i32 %n.val, 1
  br label %loop

cleanup:
  %unused = call i1 @llvm.coro.end(ptr %hdl, i1 false, token none)
  unreachable
}

; Does not fit in 8 bytes: three values live across each suspend, so the frame is allocated.
define { ptr, i32 } @fib(ptr %buffer, i32 %limit) {
entry:
  %id = call token @llvm.coro.id.retcon(i32 8, i32 4, ptr %buffer, ptr @prototype, ptr @allocate, ptr @deallocate)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr null)
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
  %unused = call i1 @llvm.coro.end(ptr %hdl, i1 false, token none)
  unreachable
}

define i32 @main() {
entry:
  %buf = alloca [8 x i8], align 8
  %count = call ptr @llvm.coro.prepare.retcon(ptr @count)
  %r0 = call { ptr, i32 } %count(ptr %buf, i32 40)
  %c0 = extractvalue { ptr, i32 } %r0, 0
  %v0 = extractvalue { ptr, i32 } %r0, 1
  call i32 (ptr, ...) @printf(ptr @fmt, i32 %v0)
  %r1 = call { ptr, i32 } %c0(ptr %buf, i1 zeroext false)
  %c1 = extractvalue { ptr, i32 } %r1, 0
  %v1 = extractvalue { ptr, i32 } %r1, 1
  call i32 (ptr, ...) @printf(ptr @fmt, i32 %v1)
  %r2 = call { ptr, i32 } %c1(ptr %buf, i1 zeroext false)
  %c2 = extractvalue { ptr, i32 } %r2, 0
  %v2 = extractvalue { ptr, i32 } %r2, 1
  call i32 (ptr, ...) @printf(ptr @fmt, i32 %v2)
  ; stop: the coroutine ends and returns a null continuation
  %r3 = call { ptr, i32 } %c2(ptr %buf, i1 zeroext true)
  %c3 = extractvalue { ptr, i32 } %r3, 0
  %done = icmp eq ptr %c3, null
  %d = zext i1 %done to i32
  call i32 (ptr, ...) @printf(ptr @fmt, i32 %d)

  ; fib runs to its end by itself: 5 values, then a null continuation.
  %fib = call ptr @llvm.coro.prepare.retcon(ptr @fib)
  %f0 = call { ptr, i32 } %fib(ptr %buf, i32 5)
  br label %drive

drive:
  %r = phi { ptr, i32 } [ %f0, %entry ], [ %fn, %body ]
  %cont = extractvalue { ptr, i32 } %r, 0
  %end = icmp eq ptr %cont, null
  br i1 %end, label %out, label %body

body:
  %v = extractvalue { ptr, i32 } %r, 1
  call i32 (ptr, ...) @printf(ptr @fmt, i32 %v)
  %fn = call { ptr, i32 } %cont(ptr %buf, i1 zeroext false)
  br label %drive

out:
  ret i32 0
}

declare token @llvm.coro.id.retcon(i32, i32, ptr, ptr, ptr, ptr)
declare ptr @llvm.coro.begin(token, ptr)
declare i1 @llvm.coro.suspend.retcon.i1(...)
declare i1 @llvm.coro.end(ptr, i1, token)
declare ptr @llvm.coro.prepare.retcon(ptr)
