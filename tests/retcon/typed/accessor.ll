; A yield-once accessor in typed pointers (LLVM 14, which has no coro.end.results): borrows an
; element, writes the caller's change back unless the caller aborts; the continuation returns void.
@fmt = private constant [4 x i8] c"%d\0A\00"
declare i32 @printf(i8*, ...)
declare i8* @malloc(i64)
declare void @free(i8*)

define i8* @allocate(i64 %size) {
  %p = call i8* @malloc(i64 %size)
  ret i8* %p
}

define void @deallocate(i8* %p) {
  call void @free(i8* %p)
  ret void
}

declare void @prototype(i8*, i1 zeroext)

define { i8*, i32* } @borrow(i8* %buffer, i32* %array, i32 %idx) {
entry:
  %id = call token @llvm.coro.id.retcon.once(i32 32, i32 8, i8* %buffer, i8* bitcast (void (i8*, i1)* @prototype to i8*), i8* bitcast (i8* (i64)* @allocate to i8*), i8* bitcast (void (i8*)* @deallocate to i8*))
  %hdl = call i8* @llvm.coro.begin(token %id, i8* null)
  %slot = alloca i32, align 4
  %elt = getelementptr inbounds i32, i32* %array, i32 %idx
  %old = load i32, i32* %elt, align 4
  store i32 %old, i32* %slot, align 4
  %abort = call i1 (...) @llvm.coro.suspend.retcon.i1(i32* %slot)
  br i1 %abort, label %aborted, label %commit

commit:
  %new = load i32, i32* %slot, align 4
  store i32 %new, i32* %elt, align 4
  br label %done

aborted:
  %f = getelementptr [4 x i8], [4 x i8]* @fmt, i32 0, i32 0
  call i32 (i8*, ...) @printf(i8* %f, i32 %old)
  br label %done

done:
  %unused = call i1 @llvm.coro.end(i8* %hdl, i1 false)
  unreachable
}

define i32 @main() {
entry:
  %fmt = getelementptr [4 x i8], [4 x i8]* @fmt, i32 0, i32 0
  %b = alloca [32 x i8], align 8
  %buf = bitcast [32 x i8]* %b to i8*
  %arr = alloca [3 x i32], align 4
  store [3 x i32] [i32 10, i32 20, i32 30], [3 x i32]* %arr, align 4
  %array = getelementptr inbounds [3 x i32], [3 x i32]* %arr, i32 0, i32 0
  %p.raw = call i8* @llvm.coro.prepare.retcon(i8* bitcast ({ i8*, i32* } (i8*, i32*, i32)* @borrow to i8*))
  %p = bitcast i8* %p.raw to { i8*, i32* } (i8*, i32*, i32)*
  %r0 = call { i8*, i32* } %p(i8* %buf, i32* %array, i32 1)
  %k0.raw = extractvalue { i8*, i32* } %r0, 0
  %k0 = bitcast i8* %k0.raw to void (i8*, i1)*
  %e0 = extractvalue { i8*, i32* } %r0, 1
  store i32 77, i32* %e0, align 4
  call void %k0(i8* %buf, i1 zeroext false)
  %r1 = call { i8*, i32* } %p(i8* %buf, i32* %array, i32 2)
  %k1.raw = extractvalue { i8*, i32* } %r1, 0
  %k1 = bitcast i8* %k1.raw to void (i8*, i1)*
  %e1 = extractvalue { i8*, i32* } %r1, 1
  store i32 99, i32* %e1, align 4
  call void %k1(i8* %buf, i1 zeroext true)
  %a1 = getelementptr inbounds i32, i32* %array, i32 1
  %v1 = load i32, i32* %a1, align 4
  call i32 (i8*, ...) @printf(i8* %fmt, i32 %v1)
  %a2 = getelementptr inbounds i32, i32* %array, i32 2
  %v2 = load i32, i32* %a2, align 4
  call i32 (i8*, ...) @printf(i8* %fmt, i32 %v2)
  ret i32 0
}

declare token @llvm.coro.id.retcon.once(i32, i32, i8*, i8*, i8*, i8*)
declare i8* @llvm.coro.begin(token, i8*)
declare i1 @llvm.coro.suspend.retcon.i1(...)
declare i1 @llvm.coro.end(i8*, i1)
declare i8* @llvm.coro.prepare.retcon(i8*)
