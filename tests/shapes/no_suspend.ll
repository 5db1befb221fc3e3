; Coroutines with no suspend point. @stack asks whether to allocate (coro.alloc):
; its frame lives on its own stack, so the allocation function is never called
; and coro.free gives null. @heap has no coro.alloc: its frame is the memory it
; was given, which coro.free returns. The allocator prints 99, the free path 77.
; Expected (LLVM's semantics): stack 1, heap 99 2 77, main 0.

define void @stack(i32 %x) presplitcoroutine {
entry:
  %id = call token @llvm.coro.id(i32 0, ptr null, ptr null, ptr null)
  %need = call i1 @llvm.coro.alloc(token %id)
  br i1 %need, label %alloc, label %begin

alloc:
  %size = call i64 @llvm.coro.size.i64()
  %m = call ptr @my_alloc(i64 %size)
  br label %begin

begin:
  %phi = phi ptr [ null, %entry ], [ %m, %alloc ]
  %hdl = call ptr @llvm.coro.begin(token %id, ptr %phi)
  call void @print(i32 %x)
  %mem = call ptr @llvm.coro.free(token %id, ptr %hdl)
  %nz = icmp ne ptr %mem, null
  br i1 %nz, label %dofree, label %end

dofree:
  call void @print(i32 77)
  call void @free(ptr %mem)
  br label %end

end:
  %u = call i1 @llvm.coro.end(ptr %hdl, i1 false, token none)
  ret void
}

define void @heap(i32 %x) presplitcoroutine {
entry:
  %id = call token @llvm.coro.id(i32 0, ptr null, ptr null, ptr null)
  %size = call i64 @llvm.coro.size.i64()
  %m = call ptr @my_alloc(i64 %size)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr %m)
  call void @print(i32 %x)
  %mem = call ptr @llvm.coro.free(token %id, ptr %hdl)
  %nz = icmp ne ptr %mem, null
  br i1 %nz, label %dofree, label %end

dofree:
  call void @print(i32 77)
  call void @free(ptr %mem)
  br label %end

end:
  %u = call i1 @llvm.coro.end(ptr %hdl, i1 false, token none)
  ret void
}

define ptr @my_alloc(i64 %n) {
entry:
  call void @print(i32 99)
  %p = call ptr @malloc(i64 %n)
  ret ptr %p
}

define i32 @main() {
entry:
  call void @stack(i32 1)
  call void @heap(i32 2)
  call void @print(i32 0)
  ret i32 0
}

@.fmt = private unnamed_addr constant [4 x i8] c"%d\0A\00"

define void @print(i32 %v) {
entry:
  %r = call i32 (ptr, ...) @printf(ptr @.fmt, i32 %v)
  ret void
}

declare i32 @printf(ptr, ...)
declare ptr @malloc(i64)
declare void @free(ptr)
declare token @llvm.coro.id(i32, ptr, ptr, ptr)
declare i1 @llvm.coro.alloc(token)
declare i64 @llvm.coro.size.i64()
declare ptr @llvm.coro.begin(token, ptr)
declare ptr @llvm.coro.free(token, ptr)
declare i1 @llvm.coro.end(ptr, i1, token)
