; Callees that return only their caller's frame pointer: @bump is declared `ptr (ptr, i64)` and
; @mark `{ ptr } (ptr)`; both are stackless functions themselves, returning through
; `frame.return(token)` (no value). @run calls each through a statepoint, reads no result, and keeps
; %k (live across both calls, spilled by llcoro) and its own slot at 16. Their re-entry function
; and the table's entries are made for these call sites as for any other.

declare token @llvm.gc.frame.layout(ptr, i32, i32)
declare token @llvm.frame.layout(ptr, i32)
declare i32 @llvm.gc.frame.spillsz()
declare void @llvm.gc.frame.save(token, ...)
declare token @llvm.gc.frame.statepoint(...)
declare token @llvm.gc.frame.accessor(token)
declare ptr @llvm.frame.sp(token)
declare i64 @llvm.gc.frame.load.i64(token, i32)
declare ptr @llvm.gc.frame.load.p0(token, i32)
declare ptr @llvm.frame.return.p0(token)
declare { ptr } @llvm.frame.return.sp(token)
declare { ptr, i64 } @llvm.frame.return.i64(token, i64)
declare ptr @malloc(i64)
declare void @free(ptr)
declare i32 @printf(ptr, ...)

@counter = global i64 0
@.fmt = private constant [26 x i8] c"run(%ld)=%ld counter=%ld\0A\00"

; Adds %by to @counter; returns the caller's frame pointer alone.
define ptr @bump(ptr %sp, i64 %by) {
entry:
  %c = load i64, ptr @counter
  %c1 = add i64 %c, %by
  store i64 %c1, ptr @counter
  %rl = call token @llvm.frame.layout(ptr %sp, i32 8)
  %r = call ptr @llvm.frame.return.p0(token %rl)
  ret ptr %r
}

; Doubles @counter; returns `{ ptr }`.
define { ptr } @mark(ptr %sp) {
entry:
  %c = load i64, ptr @counter
  %c2 = mul i64 %c, 2
  store i64 %c2, ptr @counter
  %rl = call token @llvm.frame.layout(ptr %sp, i32 8)
  %r = call { ptr } @llvm.frame.return.sp(token %rl)
  ret { ptr } %r
}

define { ptr, i64 } @run(ptr %caller, i64 %n) {
entry:
  %spill = call i32 @llvm.gc.frame.spillsz()
  %sz32 = add i32 %spill, 24
  %sz = zext i32 %sz32 to i64
  %sp = call ptr @malloc(i64 %sz)
  %lay = call token @llvm.gc.frame.layout(ptr %sp, i32 8, i32 24)
  call void (token, ...) @llvm.gc.frame.save(token %lay, ptr %caller, i32 0)
  call void (token, ...) @llvm.gc.frame.save(token %lay, i64 %n, i32 16)
  %k = mul i64 %n, 7
  %t1 = call token (...) @llvm.gc.frame.statepoint(ptr @bump, i64 %k, token %lay)
  %a1 = call token @llvm.gc.frame.accessor(token %t1)
  %t2 = call token (...) @llvm.gc.frame.statepoint(ptr @mark, token %a1)
  %a2 = call token @llvm.gc.frame.accessor(token %t2)
  %n2 = call i64 @llvm.gc.frame.load.i64(token %a2, i32 16)
  %back = call ptr @llvm.gc.frame.load.p0(token %a2, i32 0)
  %s = add i64 %n2, %k
  %mine = call ptr @llvm.frame.sp(token %a2)
  call void @free(ptr %mine)
  %rl = call token @llvm.frame.layout(ptr %back, i32 8)
  %r = call { ptr, i64 } @llvm.frame.return.i64(token %rl, i64 %s)
  ret { ptr, i64 } %r
}

define i32 @main() {
  %root = alloca [4 x ptr]
  store i64 1, ptr @counter
  %r = call { ptr, i64 } @run(ptr %root, i64 6)
  %back = extractvalue { ptr, i64 } %r, 0
  %v = extractvalue { ptr, i64 } %r, 1
  %c = load i64, ptr @counter
  %same = icmp eq ptr %back, %root
  br i1 %same, label %ok, label %bad
ok:
  call i32 (ptr, ...) @printf(ptr @.fmt, i64 6, i64 %v, i64 %c)
  ret i32 0
bad:
  ret i32 1
}

; EXPECT:
; run(6)=48 counter=86
