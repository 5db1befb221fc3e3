; Recursive fib with heap frames: every activation allocates its frame from a bump allocator, saves
; its caller's frame pointer at offset 0, and makes two stackless calls. %n is live across the first
; call and %a across the second without being saved by the front end, so llcoro spills them; the
; second call is made on the frame the first call returned (its accessor, which keeps the layout).

declare token @llvm.gc.frame.layout(ptr, i32, i32)
declare token @llvm.frame.layout(ptr, i32)
declare i32 @llvm.gc.frame.spillsz()
declare void @llvm.gc.frame.save(token, ...)
declare token @llvm.gc.frame.statepoint(...)
declare token @llvm.gc.frame.accessor(token)
declare ptr @llvm.gc.frame.load.p0(token, i32)
declare i64 @llvm.gc.frame.result.i64(token)
declare { ptr, i64 } @llvm.frame.return.i64(token, i64)
declare ptr @malloc(i64)
declare i32 @printf(ptr, ...)

@heap = global ptr null
@used = global i64 0
@.fmt = private constant [17 x i8] c"fib(%ld)=%ld ok\0A\00"

; A bump allocator for frames (never freed: the test is small).
define ptr @alloc_frame(i32 %n) {
  %h = load ptr, ptr @heap
  %u = load i64, ptr @used
  %p = getelementptr inbounds i8, ptr %h, i64 %u
  %w = zext i32 %n to i64
  %w8 = add i64 %w, 7
  %al = and i64 %w8, -8
  %u2 = add i64 %u, %al
  store i64 %u2, ptr @used
  ret ptr %p
}

define { ptr, i64 } @fib(ptr %sp_arg, i64 %n) {
entry:
  %small = icmp slt i64 %n, 2
  br i1 %small, label %base, label %rec

base:
  %bl = call token @llvm.frame.layout(ptr %sp_arg, i32 8)
  %br = call { ptr, i64 } @llvm.frame.return.i64(token %bl, i64 %n)
  ret { ptr, i64 } %br

rec:
  %spill = call i32 @llvm.gc.frame.spillsz()
  %size = add i32 %spill, 16
  %sp = call ptr @alloc_frame(i32 %size)
  %lay = call token @llvm.gc.frame.layout(ptr %sp, i32 8, i32 16)
  call void (token, ...) @llvm.gc.frame.save(token %lay, ptr %sp_arg, i32 0)
  %n1 = sub i64 %n, 1
  %t1 = call token (...) @llvm.gc.frame.statepoint(ptr @fib, i64 %n1, token %lay)
  %a = call i64 @llvm.gc.frame.result.i64(token %t1)
  %acc1 = call token @llvm.gc.frame.accessor(token %t1)
  %n2 = sub i64 %n, 2
  %t2 = call token (...) @llvm.gc.frame.statepoint(ptr @fib, i64 %n2, token %acc1)
  %b = call i64 @llvm.gc.frame.result.i64(token %t2)
  %acc2 = call token @llvm.gc.frame.accessor(token %t2)
  %caller = call ptr @llvm.gc.frame.load.p0(token %acc2, i32 0)
  %sum = add i64 %a, %b
  %rl = call token @llvm.frame.layout(ptr %caller, i32 8)
  %r = call { ptr, i64 } @llvm.frame.return.i64(token %rl, i64 %sum)
  ret { ptr, i64 } %r
}

define i32 @main() {
  %h = call ptr @malloc(i64 16777216)
  store ptr %h, ptr @heap
  %root = call ptr @alloc_frame(i32 16)
  %r = call { ptr, i64 } @fib(ptr %root, i64 20)
  %sp = extractvalue { ptr, i64 } %r, 0
  %v = extractvalue { ptr, i64 } %r, 1
  %same = icmp eq ptr %sp, %root
  br i1 %same, label %ok, label %bad
ok:
  call i32 (ptr, ...) @printf(ptr @.fmt, i64 20, i64 %v)
  ret i32 0
bad:
  ret i32 1
}

; EXPECT:
; fib(20)=6765 ok
