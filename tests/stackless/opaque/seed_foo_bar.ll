; The seed's @foo/@bar example (004, "Examples" and "Function Return"), completed so that it runs.
; Fixed from the seed's text, only where it is not valid IR:
; - `%ptr` and `%raw` get definitions (the seed leaves `; ...`); `%raw` is an i32, so its save is
;   `i32 %raw` (the seed writes `i64* %raw`);
; - the statepoint's callee is `ptr @bar` (the seed spells it `i32 (i32) @bar`, a type @bar does
;   not have), and the intrinsics are declared;
; - @bar, @AllocHeap and a driver are written out, with what happens after the call.
; %extra is live across the call and not saved by the front end: llcoro spills it (4 bytes), so
; gc.frame.spillsz() is 4.

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
@.result = private constant [24 x i8] c"result=%d same_sp=%d\0A\00\00\00"

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

define { ptr, i32 } @bar(ptr %sp_arg, i32 %arg) {
  %layoutTok = call token @llvm.frame.layout(ptr %sp_arg, i32 16)
  %v = mul i32 %arg, 2
  %retTok = call { ptr, i32 } @llvm.frame.return.i32(token %layoutTok, i32 %v)
  ret { ptr, i32 } %retTok
}

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

define i32 @main() {
  %root = call ptr @AllocHeap(i32 64)
  %r = call { ptr, i32 } @foo(ptr %root, i32 5)
  %sp = extractvalue { ptr, i32 } %r, 0
  %v = extractvalue { ptr, i32 } %r, 1
  %same = icmp eq ptr %sp, %root
  %same32 = zext i1 %same to i32
  call i32 (ptr, ...) @printf(ptr @.result, i32 %v, i32 %same32)
  ret i32 0
}

; EXPECT:
; spill=4
; result=211 same_sp=1
