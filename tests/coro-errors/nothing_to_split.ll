; FINDING: warning coro-nothing-to-split 15:3
; A function marked presplitcoroutine that calls coro.id but has no
; coro.begin and never suspends (an attribute and an intrinsic left behind,
; as in LLVM's coro-id-alias test). LLVM's CoroSplit finds nothing to split and
; its CoroCleanup removes the intrinsics; llcoro warns at coro.id and does the
; same: coro.alloc is true and coro.free gives back its frame operand. Valid
; IR: LLVM's verifier accepts it.
; Opaque-pointer (LLVM 19) dialect.
; EXPECT-OUTPUT: 7

@.fmt = private unnamed_addr constant [4 x i8] c"%d\0A\00", align 1

define i32 @f(i32 %n) presplitcoroutine {
entry:
  %id = call token @llvm.coro.id(i32 0, ptr null, ptr null, ptr null)
  %need = call i1 @llvm.coro.alloc(token %id)
  %mem = call ptr @malloc(i64 16)
  store i32 %n, ptr %mem, align 4
  %v = load i32, ptr %mem, align 4
  %r = select i1 %need, i32 %v, i32 -1
  %fr = call ptr @llvm.coro.free(token %id, ptr %mem)
  call void @free(ptr %fr)
  ret i32 %r
}

define i32 @main() {
entry:
  %v = call i32 @f(i32 7)
  %p = call i32 (ptr, ...) @printf(ptr @.fmt, i32 %v)
  ret i32 0
}

declare i32 @printf(ptr, ...)
declare ptr @malloc(i64)
declare void @free(ptr)
declare token @llvm.coro.id(i32, ptr, ptr, ptr)
declare i1 @llvm.coro.alloc(token)
declare ptr @llvm.coro.free(token, ptr)
