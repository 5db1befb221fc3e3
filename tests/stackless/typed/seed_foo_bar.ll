; The seed's @foo/@bar example in its own typed-pointer spelling (%stack_ty = type i64*), completed
; so that it runs under LLVM 14. Fixed from the seed's text, only where it is not valid IR:
; - `%ptr` and `%raw` get definitions (the seed leaves `; ...`); `%raw` is an i32, so its save is
;   `i32 %raw` (the seed writes `i64* %raw`);
; - the statepoint's callee is @bar as it is declared, `{ i64*, i32 } (i64*, i32)* @bar` (the seed
;   spells it `i32 (i32) @bar`), and the intrinsics are declared;
; - @bar, @AllocHeap and a driver are written out, with what happens after the call.

%stack_ty = type i64*

declare token @llvm.gc.frame.layout(%stack_ty, i32, i32)
declare token @llvm.frame.layout(%stack_ty, i32)
declare i32 @llvm.gc.frame.spillsz()
declare void @llvm.gc.frame.save(token, ...)
declare token @llvm.gc.frame.statepoint(...)
declare token @llvm.gc.frame.accessor(token)
declare i64* @llvm.gc.frame.load.p0i64(token, i32)
declare i32 @llvm.gc.frame.result.i32(token)
declare { %stack_ty, i32 } @llvm.frame.return.i32(token, i32)
declare i8* @malloc(i64)
declare i32 @printf(i8*, ...)

@.spill = private constant [10 x i8] c"spill=%d\0A\00"
@.result = private constant [22 x i8] c"result=%d same_sp=%d\0A\00"

define %stack_ty @AllocHeap(i32 %n) {
  %w = zext i32 %n to i64
  %p = call i8* @malloc(i64 %w)
  %s = bitcast i8* %p to %stack_ty
  ret %stack_ty %s
}

define i64* @gc_alloc_i64(i64 %v) {
  %p = call i8* @malloc(i64 8)
  %q = bitcast i8* %p to i64*
  store i64 %v, i64* %q
  ret i64* %q
}

define { %stack_ty, i32 } @bar(%stack_ty %sp_arg, i32 %arg) {
  %layoutTok = call token @llvm.frame.layout(%stack_ty %sp_arg, i32 16)
  %v = mul i32 %arg, 2
  %retTok = call { %stack_ty, i32 } @llvm.frame.return.i32(token %layoutTok, i32 %v)
  ret { %stack_ty, i32 } %retTok
}

define { %stack_ty, i32 } @foo(%stack_ty %sp_arg, i32 %arg) {
entry:
  %ptr = call i64* @gc_alloc_i64(i64 100)
  %raw = add i32 %arg, 7
  %extra = mul i32 %arg, 3

  %spill_sz = call i32 @llvm.gc.frame.spillsz()
  %fmt0 = getelementptr [10 x i8], [10 x i8]* @.spill, i64 0, i64 0
  call i32 (i8*, ...) @printf(i8* %fmt0, i32 %spill_sz)
  %frame_sz = add i32 %spill_sz, 32
  %sp = call %stack_ty @AllocHeap(i32 %frame_sz)

  %frameTok = call token @llvm.gc.frame.layout(%stack_ty %sp, i32 16, i32 32)

  call void (token, ...) @llvm.gc.frame.save(token %frameTok, %stack_ty %sp_arg, i32 0)
  call void (token, ...) @llvm.gc.frame.save(token %frameTok, i64* %ptr, i32 8)
  call void (token, ...) @llvm.gc.frame.save(token %frameTok, i32 %raw, i32 24)

  %tok = call token (...) @llvm.gc.frame.statepoint({ %stack_ty, i32 } (%stack_ty, i32)* @bar, i32 42, token %frameTok)

  %relo_frameTok = call token @llvm.gc.frame.accessor(token %tok)
  %relo_ptr = call i64* @llvm.gc.frame.load.p0i64(token %relo_frameTok, i32 8)
  %retVal = call i32 @llvm.gc.frame.result.i32(token %tok)

  %x = load i64, i64* %relo_ptr
  %x32 = trunc i64 %x to i32
  %s1 = add i32 %retVal, %raw
  %s2 = add i32 %s1, %extra
  %sum = add i32 %s2, %x32
  %caller_sp = call i64* @llvm.gc.frame.load.p0i64(token %relo_frameTok, i32 0)
  %rl = call token @llvm.frame.layout(%stack_ty %caller_sp, i32 16)
  %ret = call { %stack_ty, i32 } @llvm.frame.return.i32(token %rl, i32 %sum)
  ret { %stack_ty, i32 } %ret
}

define i32 @main() {
  %root = call %stack_ty @AllocHeap(i32 64)
  %r = call { %stack_ty, i32 } @foo(%stack_ty %root, i32 5)
  %sp = extractvalue { %stack_ty, i32 } %r, 0
  %v = extractvalue { %stack_ty, i32 } %r, 1
  %same = icmp eq %stack_ty %sp, %root
  %same32 = zext i1 %same to i32
  %fmt = getelementptr [22 x i8], [22 x i8]* @.result, i64 0, i64 0
  call i32 (i8*, ...) @printf(i8* %fmt, i32 %v, i32 %same32)
  ret i32 0
}

; EXPECT:
; spill=4
; result=211 same_sp=1
