; The seed's @foo, with @bar written in C (main.c): while @bar runs, @foo's frame is suspended at
; the statepoint, and main.c finds its call site in the frame descriptor table through the key in
; the frame's return-address slot (docs/stackless.md).

declare token @llvm.gc.frame.layout(ptr, i32, i32)
declare token @llvm.frame.layout(ptr, i32)
declare i32 @llvm.gc.frame.spillsz()
declare void @llvm.gc.frame.save(token, ...)
declare token @llvm.gc.frame.statepoint(...)
declare token @llvm.gc.frame.accessor(token)
declare ptr @llvm.gc.frame.load.p0(token, i32)
declare i32 @llvm.gc.frame.result.i32(token)
declare { ptr, i32 } @llvm.frame.return.i32(token, i32)
declare ptr @malloc(i64)
declare i32 @printf(ptr, ...)

@.spill = private constant [10 x i8] c"spill=%d\0A\00"

define ptr @AllocHeap(i32 %n) {
  %w = zext i32 %n to i64
  %p = call ptr @malloc(i64 %w)
  ret ptr %p
}

; An object the GC tracks: one i64.
define ptr @gc_alloc_i64(i64 %v) {
  %p = call ptr @malloc(i64 8)
  store i64 %v, ptr %p
  ret ptr %p
}

declare { ptr, i32 } @bar(ptr, i32)

define { ptr, i32 } @foo(ptr %sp_arg, i32 %arg) {
entry:
  %ptr = call ptr @gc_alloc_i64(i64 100)
  %raw = add i32 %arg, 7
  %extra = mul i32 %arg, 3

  %spill_sz = call i32 @llvm.gc.frame.spillsz()
  call i32 (ptr, ...) @printf(ptr @.spill, i32 %spill_sz)
  %frame_sz = add i32 %spill_sz, 32
  %sp = call ptr @AllocHeap(i32 %frame_sz)

  %frameTok = call token @llvm.gc.frame.layout(ptr %sp, i32 16, i32 32)

  call void (token, ...) @llvm.gc.frame.save(token %frameTok, ptr %sp_arg, i32 0)
  call void (token, ...) @llvm.gc.frame.save(token %frameTok, ptr %ptr, i32 8)
  call void (token, ...) @llvm.gc.frame.save(token %frameTok, i32 %raw, i32 24)

  %tok = call token (...) @llvm.gc.frame.statepoint(ptr @bar, i32 42, token %frameTok)

  %relo_frameTok = call token @llvm.gc.frame.accessor(token %tok)
  %relo_ptr = call ptr @llvm.gc.frame.load.p0(token %relo_frameTok, i32 8)
  %retVal = call i32 @llvm.gc.frame.result.i32(token %tok)

  %x = load i64, ptr %relo_ptr
  %x32 = trunc i64 %x to i32
  %s1 = add i32 %retVal, %raw
  %s2 = add i32 %s1, %extra
  %sum = add i32 %s2, %x32
  %caller_sp = call ptr @llvm.gc.frame.load.p0(token %relo_frameTok, i32 0)
  %rl = call token @llvm.frame.layout(ptr %caller_sp, i32 16)
  %ret = call { ptr, i32 } @llvm.frame.return.i32(token %rl, i32 %sum)
  ret { ptr, i32 } %ret
}
