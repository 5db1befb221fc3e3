; Yield-once accessors (coro.id.retcon.once): a scoped borrow of an array element that writes
; back unless the caller aborts, with a normal result from coro.end.results (its frame fits the 32-byte buffer); one whose frame does
; not fit the caller's buffer; one that yields two values and takes two resume values.
@fmt = private constant [4 x i8] c"%d\0A\00"
declare i32 @printf(ptr, ...)
declare ptr @malloc(i64)
declare void @free(ptr)

define ptr @allocate(i64 %size) {
  %p = call ptr @malloc(i64 %size)
  %t = trunc i64 %size to i32
  %tag = add i32 %t, 1000
  call i32 (ptr, ...) @printf(ptr @fmt, i32 %tag)
  ret ptr %p
}

define void @deallocate(ptr %p) {
  call i32 (ptr, ...) @printf(ptr @fmt, i32 -1000)
  call void @free(ptr %p)
  ret void
}

declare i32 @proto_i32(ptr, i1 zeroext)
declare void @proto_void(ptr, i1 zeroext)
declare { i32, i32 } @proto_pair(ptr, i32, i32)

; Borrows array[idx] into a local the caller edits; on commit writes it back and returns the old
; value + 100, on abort returns -1.
define { ptr, ptr } @borrow(ptr %buffer, ptr %array, i32 %idx) {
entry:
  %id = call token @llvm.coro.id.retcon.once(i32 32, i32 8, ptr %buffer, ptr @proto_i32, ptr @allocate, ptr @deallocate)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr null)
  %slot = alloca i32, align 4
  %elt = getelementptr inbounds i32, ptr %array, i32 %idx
  %old = load i32, ptr %elt, align 4
  store i32 %old, ptr %slot, align 4
  %abort = call i1 (...) @llvm.coro.suspend.retcon.i1(ptr %slot)
  br i1 %abort, label %aborted, label %commit

commit:
  %new = load i32, ptr %slot, align 4
  store i32 %new, ptr %elt, align 4
  %res = add i32 %old, 100
  br label %done

aborted:
  br label %done

done:
  %r = phi i32 [ %res, %commit ], [ -1, %aborted ]
  %tok = call token (...) @llvm.coro.end.results(i32 %r)
  %unused = call i1 @llvm.coro.end(ptr %hdl, i1 false, token %tok)
  unreachable
}

; Too big for its 8-byte buffer: the frame comes from @allocate and goes to @deallocate.
define { ptr, i32 } @big(ptr %buffer, i64 %a, i64 %b, i64 %c) {
entry:
  %id = call token @llvm.coro.id.retcon.once(i32 8, i32 8, ptr %buffer, ptr @proto_void, ptr @allocate, ptr @deallocate)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr null)
  %s = add i64 %a, %b
  %s32 = trunc i64 %s to i32
  %abort = call i1 (...) @llvm.coro.suspend.retcon.i1(i32 %s32)
  br i1 %abort, label %end, label %go

go:
  %t = add i64 %s, %c
  %m = mul i64 %t, %a
  %m32 = trunc i64 %m to i32
  call i32 (ptr, ...) @printf(ptr @fmt, i32 %m32)
  br label %end

end:
  %unused = call i1 @llvm.coro.end(ptr %hdl, i1 false, token none)
  unreachable
}

; Yields two values, is resumed with two, returns two.
define { ptr, i32, i32 } @pair(ptr %buffer, i32 %x) {
entry:
  %id = call token @llvm.coro.id.retcon.once(i32 8, i32 8, ptr %buffer, ptr @proto_pair, ptr @allocate, ptr @deallocate)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr null)
  %y = mul i32 %x, 3
  %in = call { i32, i32 } (...) @llvm.coro.suspend.retcon.sl_i32i32s(i32 %x, i32 %y)
  %p = extractvalue { i32, i32 } %in, 0
  %q = extractvalue { i32, i32 } %in, 1
  %sum = add i32 %p, %x
  %dif = sub i32 %q, %y
  %tok = call token (...) @llvm.coro.end.results(i32 %sum, i32 %dif)
  %unused = call i1 @llvm.coro.end(ptr %hdl, i1 false, token %tok)
  unreachable
}

define i32 @main() {
entry:
  %buf = alloca [32 x i8], align 8
  %array = alloca [3 x i32], align 4
  store [3 x i32] [i32 10, i32 20, i32 30], ptr %array, align 4
  ; commit: array[1] becomes 77, result 120
  %b = call ptr @llvm.coro.prepare.retcon(ptr @borrow)
  %r0 = call { ptr, ptr } %b(ptr %buf, ptr %array, i32 1)
  %k0 = extractvalue { ptr, ptr } %r0, 0
  %p0 = extractvalue { ptr, ptr } %r0, 1
  store i32 77, ptr %p0, align 4
  %res0 = call i32 %k0(ptr %buf, i1 zeroext false)
  call i32 (ptr, ...) @printf(ptr @fmt, i32 %res0)
  ; abort: array[2] stays 30, result -1
  %r1 = call { ptr, ptr } %b(ptr %buf, ptr %array, i32 2)
  %k1 = extractvalue { ptr, ptr } %r1, 0
  %p1 = extractvalue { ptr, ptr } %r1, 1
  store i32 99, ptr %p1, align 4
  %res1 = call i32 %k1(ptr %buf, i1 zeroext true)
  call i32 (ptr, ...) @printf(ptr @fmt, i32 %res1)
  %e1 = getelementptr inbounds [3 x i32], ptr %array, i32 0, i32 1
  %v1 = load i32, ptr %e1, align 4
  call i32 (ptr, ...) @printf(ptr @fmt, i32 %v1)
  %e2 = getelementptr inbounds [3 x i32], ptr %array, i32 0, i32 2
  %v2 = load i32, ptr %e2, align 4
  call i32 (ptr, ...) @printf(ptr @fmt, i32 %v2)
  ; the big frame: run once to the end, once aborted
  %g = call ptr @llvm.coro.prepare.retcon(ptr @big)
  %g0 = call { ptr, i32 } %g(ptr %buf, i64 2, i64 3, i64 4)
  %gk0 = extractvalue { ptr, i32 } %g0, 0
  %gv0 = extractvalue { ptr, i32 } %g0, 1
  call i32 (ptr, ...) @printf(ptr @fmt, i32 %gv0)
  call void %gk0(ptr %buf, i1 zeroext false)
  %g1 = call { ptr, i32 } %g(ptr %buf, i64 5, i64 6, i64 7)
  %gk1 = extractvalue { ptr, i32 } %g1, 0
  call void %gk1(ptr %buf, i1 zeroext true)
  ; two in, two out
  %q = call ptr @llvm.coro.prepare.retcon(ptr @pair)
  %q0 = call { ptr, i32, i32 } %q(ptr %buf, i32 7)
  %qk = extractvalue { ptr, i32, i32 } %q0, 0
  %qx = extractvalue { ptr, i32, i32 } %q0, 1
  %qy = extractvalue { ptr, i32, i32 } %q0, 2
  call i32 (ptr, ...) @printf(ptr @fmt, i32 %qx)
  call i32 (ptr, ...) @printf(ptr @fmt, i32 %qy)
  %out = call { i32, i32 } %qk(ptr %buf, i32 100, i32 200)
  %o0 = extractvalue { i32, i32 } %out, 0
  %o1 = extractvalue { i32, i32 } %out, 1
  call i32 (ptr, ...) @printf(ptr @fmt, i32 %o0)
  call i32 (ptr, ...) @printf(ptr @fmt, i32 %o1)
  ret i32 0
}

declare token @llvm.coro.id.retcon.once(i32, i32, ptr, ptr, ptr, ptr)
declare ptr @llvm.coro.begin(token, ptr)
declare i1 @llvm.coro.suspend.retcon.i1(...)
declare { i32, i32 } @llvm.coro.suspend.retcon.sl_i32i32s(...)
declare i1 @llvm.coro.end(ptr, i1, token)
declare token @llvm.coro.end.results(...)
declare ptr @llvm.coro.prepare.retcon(ptr)
