; The `llvm.coro.safe.elide(ptr)` form of the elide-safe mark (an LLVM development form of what
; clang 20+ writes as the `coro_elide_safe` call-site attribute): @parent marks the coroutine it
; creates and destroys as safe to keep in its own frame. @child's frame comes from @counted_alloc,
; which counts, so no proof would let llcoro elide it; the mark does, as LLVM's
; CoroAnnotationElide does. LLVM 19 and 22 do not know the intrinsic: their lowering of this file
; calls an undefined function, so the oracle is the file without the mark.
; EXPECT-OUTPUT: child 1 child 2 parent 3 heap frames 1

@.fmt = private unnamed_addr constant [10 x i8] c"child %d\0A\00"
@.pfmt = private unnamed_addr constant [11 x i8] c"parent %d\0A\00"
@.hfmt = private unnamed_addr constant [16 x i8] c"heap frames %d\0A\00"
@allocated = internal global i32 0

define internal ptr @counted_alloc(i64 %n) {
entry:
  %c = load i32, ptr @allocated
  %c1 = add i32 %c, 1
  store i32 %c1, ptr @allocated
  %m = call ptr @malloc(i64 %n)
  ret ptr %m
}

define internal ptr @child(i32 %n) presplitcoroutine {
entry:
  %id = call token @llvm.coro.id(i32 0, ptr null, ptr null, ptr null)
  %need = call i1 @llvm.coro.alloc(token %id)
  br i1 %need, label %alloc, label %begin
alloc:
  %size = call i64 @llvm.coro.size.i64()
  %mem = call ptr @counted_alloc(i64 %size)
  br label %begin
begin:
  %phi = phi ptr [ null, %entry ], [ %mem, %alloc ]
  %hdl = call ptr @llvm.coro.begin(token %id, ptr %phi)
  br label %loop
loop:
  %i = phi i32 [ 1, %begin ], [ %i1, %resume ]
  %s = call i8 @llvm.coro.suspend(token none, i1 false)
  switch i8 %s, label %suspend [i8 0, label %resume
                                i8 1, label %cleanup]
resume:
  %r = call i32 (ptr, ...) @printf(ptr @.fmt, i32 %i)
  %i1 = add i32 %i, 1
  br label %loop
cleanup:
  %f = call ptr @llvm.coro.free(token %id, ptr %hdl)
  %isnull = icmp eq ptr %f, null
  br i1 %isnull, label %suspend, label %dofree
dofree:
  call void @free(ptr %f)
  br label %suspend
suspend:
  %u = call i1 @llvm.coro.end(ptr null, i1 false, token none)
  ret ptr %hdl
}

define internal ptr @parent() presplitcoroutine {
entry:
  %id = call token @llvm.coro.id(i32 0, ptr null, ptr null, ptr null)
  %size = call i64 @llvm.coro.size.i64()
  %mem = call ptr @counted_alloc(i64 %size)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr %mem)
  %c = call ptr @child(i32 0)
  call void @llvm.coro.safe.elide(ptr %c)
  %s = call i8 @llvm.coro.suspend(token none, i1 false)
  switch i8 %s, label %suspend [i8 0, label %resume
                                i8 1, label %cleanup]
resume:
  call void @llvm.coro.resume(ptr %c)
  call void @llvm.coro.resume(ptr %c)
  call void @llvm.coro.destroy(ptr %c)
  %r = call i32 (ptr, ...) @printf(ptr @.pfmt, i32 3)
  br label %cleanup
cleanup:
  %f = call ptr @llvm.coro.free(token %id, ptr %hdl)
  call void @free(ptr %f)
  br label %suspend
suspend:
  %u = call i1 @llvm.coro.end(ptr null, i1 false, token none)
  ret ptr %hdl
}

define i32 @main() {
entry:
  %p = call ptr @parent()
  call void @llvm.coro.resume(ptr %p)
  %n = load i32, ptr @allocated
  %r = call i32 (ptr, ...) @printf(ptr @.hfmt, i32 %n)
  ret i32 0
}

declare i32 @printf(ptr, ...)
declare ptr @malloc(i64)
declare void @free(ptr)
declare token @llvm.coro.id(i32, ptr, ptr, ptr)
declare i1 @llvm.coro.alloc(token)
declare i64 @llvm.coro.size.i64()
declare ptr @llvm.coro.begin(token, ptr)
declare i8 @llvm.coro.suspend(token, i1)
declare ptr @llvm.coro.free(token, ptr)
declare i1 @llvm.coro.end(ptr, i1, token)
declare void @llvm.coro.resume(ptr)
declare void @llvm.coro.destroy(ptr)
declare void @llvm.coro.safe.elide(ptr)
