; llvm.coro.size and llvm.coro.align used for a custom aligned allocation: the
; promise is a 64-byte aligned alloca, so the frame needs 64-byte alignment;
; the ramp rounds the size up to a multiple of coro.align and allocates with
; aligned_alloc(align, size). The ramp prints whether the alignment is at
; least 64 and whether the frame is aligned to it; main checks the promise
; pointer's alignment, writes the promise, and the coroutine reads it back
; after a resume; coro.promise with from=true must give back the handle.

define ptr @co() presplitcoroutine {
entry:
  %promise = alloca [2 x i64], align 64
  %id = call token @llvm.coro.id(i32 0, ptr %promise, ptr null, ptr null)
  %size = call i64 @llvm.coro.size.i64()
  %align = call i64 @llvm.coro.align.i64()
  %mask = sub i64 %align, 1
  %bumped = add i64 %size, %mask
  %notmask = xor i64 %mask, -1
  %rounded = and i64 %bumped, %notmask
  %mem = call ptr @aligned_alloc(i64 %align, i64 %rounded)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr %mem)
  %big = icmp uge i64 %align, 64
  %bigz = zext i1 %big to i32
  call void @print(i32 %bigz)
  %addr = ptrtoint ptr %hdl to i64
  %low = and i64 %addr, %mask
  %ok = icmp eq i64 %low, 0
  %okz = zext i1 %ok to i32
  call void @print(i32 %okz)
  store i64 5, ptr %promise
  %s = call i8 @llvm.coro.suspend(token none, i1 false)
  switch i8 %s, label %suspend [ i8 0, label %resume
                                 i8 1, label %cleanup ]

resume:
  %p0 = load i64, ptr %promise
  %p1a = getelementptr inbounds i64, ptr %promise, i64 1
  %p1 = load i64, ptr %p1a
  %sum = add i64 %p0, %p1
  %sum32 = trunc i64 %sum to i32
  call void @print(i32 %sum32)
  %fin = call i8 @llvm.coro.suspend(token none, i1 true)
  switch i8 %fin, label %suspend [ i8 0, label %never
                                   i8 1, label %cleanup ]

cleanup:
  call void @print(i32 -1)
  %f = call ptr @llvm.coro.free(token %id, ptr %hdl)
  call void @free(ptr %f)
  br label %suspend

suspend:
  %u = call i1 @llvm.coro.end(ptr %hdl, i1 false, token none)
  ret ptr %hdl

never:
  unreachable
}

define i32 @main() {
entry:
  %h = call ptr @co()
  %p = call ptr @llvm.coro.promise(ptr %h, i32 64, i1 false)
  %addr = ptrtoint ptr %p to i64
  %low = and i64 %addr, 63
  %ok = icmp eq i64 %low, 0
  %okz = zext i1 %ok to i32
  call void @print(i32 %okz)
  %back = call ptr @llvm.coro.promise(ptr %p, i32 64, i1 true)
  %same = icmp eq ptr %back, %h
  %samez = zext i1 %same to i32
  call void @print(i32 %samez)
  %v0 = load i64, ptr %p
  %v032 = trunc i64 %v0 to i32
  call void @print(i32 %v032)
  %p1 = getelementptr inbounds i64, ptr %p, i64 1
  store i64 37, ptr %p1
  call void @llvm.coro.resume(ptr %h)
  %d = call i1 @llvm.coro.done(ptr %h)
  %dz = zext i1 %d to i32
  call void @print(i32 %dz)
  call void @llvm.coro.destroy(ptr %h)
  ret i32 0
}

declare ptr @aligned_alloc(i64, i64)
declare i64 @llvm.coro.align.i64()

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
declare i64 @llvm.coro.size.i64()
declare ptr @llvm.coro.begin(token, ptr)
declare token @llvm.coro.save(ptr)
declare i8 @llvm.coro.suspend(token, i1)
declare ptr @llvm.coro.free(token, ptr)
declare i1 @llvm.coro.end(ptr, i1, token)
declare void @llvm.coro.resume(ptr)
declare void @llvm.coro.destroy(ptr)
declare i1 @llvm.coro.done(ptr)
declare ptr @llvm.coro.promise(ptr, i32, i1)
