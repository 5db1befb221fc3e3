; Computed gotos in a coroutine's body: `blockaddress(@co, %bb)` with
; `indirectbr`, before the first suspend (the ramp runs it) and after each
; resume (`.resume` runs it). In each split function the constant must name that
; function (LLVM maps it to the clone's own block). Odd rounds print 10 + n,
; even rounds 20 + n.

define ptr @co() presplitcoroutine {
entry:
  %id = call token @llvm.coro.id(i32 0, ptr null, ptr null, ptr null)
  %size = call i64 @llvm.coro.size.i64()
  %mem = call ptr @malloc(i64 %size)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr %mem)
  br label %round

round:
  %n = phi i32 [ 0, %entry ], [ %n1, %join ]
  %odd = and i32 %n, 1
  %isodd = icmp ne i32 %odd, 0
  %target = select i1 %isodd, ptr blockaddress(@co, %odd.arm), ptr blockaddress(@co, %even.arm)
  indirectbr ptr %target, [label %odd.arm, label %even.arm]

odd.arm:
  %a = add i32 %n, 10
  call void @print(i32 %a)
  br label %join

even.arm:
  %b = add i32 %n, 20
  call void @print(i32 %b)
  br label %join

join:
  %n1 = add i32 %n, 1
  %s = call i8 @llvm.coro.suspend(token none, i1 false)
  switch i8 %s, label %suspend [ i8 0, label %round
                                 i8 1, label %cleanup ]

cleanup:
  %m = call ptr @llvm.coro.free(token %id, ptr %hdl)
  call void @free(ptr %m)
  br label %suspend

suspend:
  %e = call i1 @llvm.coro.end(ptr null, i1 false, token none)
  ret ptr %hdl
}

define i32 @main() {
entry:
  %h = call ptr @co()
  call void @llvm.coro.resume(ptr %h)
  call void @llvm.coro.resume(ptr %h)
  call void @llvm.coro.resume(ptr %h)
  call void @llvm.coro.destroy(ptr %h)
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
declare i64 @llvm.coro.size.i64()
declare ptr @llvm.coro.begin(token, ptr)
declare i8 @llvm.coro.suspend(token, i1)
declare ptr @llvm.coro.free(token, ptr)
declare i1 @llvm.coro.end(ptr, i1, token)
declare void @llvm.coro.resume(ptr)
declare void @llvm.coro.destroy(ptr)
