; Dynamic allocas in a returned-continuation coroutine (coro.alloca.alloc/get/free): one of
; run-time size that lives across suspends (memory from the coroutine's allocator, freed at
; coro.alloca.free) and one between two suspends (on the stack, restored after its free).
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

; Fills n i32s with 0..n-1, yields each, then yields a sum computed in a scratch array that no
; suspend crosses.
define { ptr, i32 } @values(ptr %buffer, i32 %n) {
entry:
  %id = call token @llvm.coro.id.retcon(i32 16, i32 8, ptr %buffer, ptr @prototype, ptr @allocate, ptr @deallocate)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr null)
  %bytes = mul i32 %n, 4
  %tok = call token @llvm.coro.alloca.alloc.i32(i32 %bytes, i32 4)
  %mem = call ptr @llvm.coro.alloca.get(token %tok)
  br label %fill

fill:
  %i = phi i32 [ 0, %entry ], [ %i1, %fill ]
  %slot = getelementptr inbounds i32, ptr %mem, i32 %i
  store i32 %i, ptr %slot, align 4
  %i1 = add i32 %i, 1
  %more = icmp slt i32 %i1, %n
  br i1 %more, label %fill, label %yield

yield:
  %j = phi i32 [ 0, %fill ], [ %j1, %next ]
  %at = getelementptr inbounds i32, ptr %mem, i32 %j
  %v = load i32, ptr %at, align 4
  %stop = call i1 (...) @llvm.coro.suspend.retcon.i1(i32 %v)
  br i1 %stop, label %cleanup, label %next

next:
  %j1 = add i32 %j, 1
  %again = icmp slt i32 %j1, %n
  br i1 %again, label %yield, label %scratch

scratch:
  call void @llvm.coro.alloca.free(token %tok)
  %tok2 = call token @llvm.coro.alloca.alloc.i32(i32 %bytes, i32 8)
  %tmp = call ptr @llvm.coro.alloca.get(token %tok2)
  store i32 %n, ptr %tmp, align 4
  %t = load i32, ptr %tmp, align 4
  %sum = mul i32 %t, 11
  call void @llvm.coro.alloca.free(token %tok2)
  %stop2 = call i1 (...) @llvm.coro.suspend.retcon.i1(i32 %sum)
  br label %end

cleanup:
  call void @llvm.coro.alloca.free(token %tok)
  br label %end

end:
  %unused = call i1 @llvm.coro.end(ptr %hdl, i1 false, token none)
  unreachable
}

define i32 @main() {
entry:
  %buf = alloca [16 x i8], align 8
  %p = call ptr @llvm.coro.prepare.retcon(ptr @values)
  %r0 = call { ptr, i32 } %p(ptr %buf, i32 3)
  br label %drive

drive:
  %r = phi { ptr, i32 } [ %r0, %entry ], [ %rn, %body ]
  %k = extractvalue { ptr, i32 } %r, 0
  %end = icmp eq ptr %k, null
  br i1 %end, label %second, label %body

body:
  %v = extractvalue { ptr, i32 } %r, 1
  call i32 (ptr, ...) @printf(ptr @fmt, i32 %v)
  %rn = call { ptr, i32 } %k(ptr %buf, i1 zeroext false)
  br label %drive

second:
  ; stopped after the first value: the array is freed on the cleanup path
  %s0 = call { ptr, i32 } %p(ptr %buf, i32 5)
  %sk = extractvalue { ptr, i32 } %s0, 0
  %sv = extractvalue { ptr, i32 } %s0, 1
  call i32 (ptr, ...) @printf(ptr @fmt, i32 %sv)
  %s1 = call { ptr, i32 } %sk(ptr %buf, i1 zeroext true)
  ret i32 0
}

declare token @llvm.coro.id.retcon(i32, i32, ptr, ptr, ptr, ptr)
declare ptr @llvm.coro.begin(token, ptr)
declare i1 @llvm.coro.suspend.retcon.i1(...)
declare i1 @llvm.coro.end(ptr, i1, token)
declare ptr @llvm.coro.prepare.retcon(ptr)
declare token @llvm.coro.alloca.alloc.i32(i32, i32)
declare ptr @llvm.coro.alloca.get(token)
declare void @llvm.coro.alloca.free(token)
