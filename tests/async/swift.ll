; Swift's shape of an async coroutine: swiftcc, the context a `swiftasync` parameter, Swift's
; context projection (whose name gives the continuations Swift's TQ suffix), a suspend whose
; continuation takes the context and a reply value, a loop suspending once per element, and a
; plain coro.end after returning to the caller's continuation. The run queue calls each
; continuation with its context and the reply. Context header (32 bytes): +0 the caller's
; context, +8 the function to return to, +16 a value slot.
@fmt = private constant [8 x i8] c"%s %ld\0A\00"
@s.send = private constant [5 x i8] c"send\00"
@s.got = private constant [4 x i8] c"got\00"
@s.done = private constant [5 x i8] c"done\00"
declare i32 @printf(ptr, ...)
declare ptr @calloc(i64, i64)
declare void @free(ptr)

@queue.fn = internal global [16 x ptr] zeroinitializer
@queue.ctx = internal global [16 x ptr] zeroinitializer
@queue.val = internal global [16 x i64] zeroinitializer
@queue.head = internal global i64 0
@queue.tail = internal global i64 0

define void @schedule(ptr %fn, ptr %ctx, i64 %v) {
  %t = load i64, ptr @queue.tail
  %f = getelementptr [16 x ptr], ptr @queue.fn, i64 0, i64 %t
  store ptr %fn, ptr %f
  %c = getelementptr [16 x ptr], ptr @queue.ctx, i64 0, i64 %t
  store ptr %ctx, ptr %c
  %x = getelementptr [16 x i64], ptr @queue.val, i64 0, i64 %t
  store i64 %v, ptr %x
  %t1 = add i64 %t, 1
  store i64 %t1, ptr @queue.tail
  ret void
}

define void @run() {
entry:
  br label %loop
loop:
  %h = load i64, ptr @queue.head
  %t = load i64, ptr @queue.tail
  %more = icmp ult i64 %h, %t
  br i1 %more, label %body, label %out
body:
  %f = getelementptr [16 x ptr], ptr @queue.fn, i64 0, i64 %h
  %fn = load ptr, ptr %f
  %c = getelementptr [16 x ptr], ptr @queue.ctx, i64 0, i64 %h
  %ctx = load ptr, ptr %c
  %x = getelementptr [16 x i64], ptr @queue.val, i64 0, i64 %h
  %v = load i64, ptr %x
  %h1 = add i64 %h, 1
  store i64 %h1, ptr @queue.head
  call swiftcc void %fn(ptr swiftasync %ctx, i64 %v)
  br label %loop
out:
  ret void
}

; Sends %v; the reply (ten times it) comes back through the queue.
define swiftcc void @send.apply(ptr %resume, ptr %ctx, i64 %v) {
  call i32 (ptr, ...) @printf(ptr @fmt, ptr @s.send, i64 %v)
  %reply = mul i64 %v, 10
  call void @schedule(ptr %resume, ptr %ctx, i64 %reply)
  ret void
}

define ptr @__swift_async_resume_project_context(ptr %ctx) {
  ret ptr %ctx
}

@producer_fp = constant <{ i32, i32 }> <{ i32 0, i32 32 }>

define swiftcc void @producer(ptr swiftasync %ctx, i64 %n) presplitcoroutine {
entry:
  %id = call token @llvm.coro.id.async(i32 32, i32 16, i32 0, ptr @producer_fp)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr null)
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %sum = phi i64 [ 0, %entry ], [ %sum1, %loop ]
  %c = phi ptr [ %ctx, %entry ], [ %c1, %loop ]
  %r = call ptr @llvm.coro.async.resume()
  %res = call { ptr, i64 } (i32, ptr, ptr, ...) @llvm.coro.suspend.async(i32 0, ptr %r, ptr @__swift_async_resume_project_context, ptr @send.apply, ptr %r, ptr %c, i64 %i)
  %c1 = extractvalue { ptr, i64 } %res, 0
  %got = extractvalue { ptr, i64 } %res, 1
  call i32 (ptr, ...) @printf(ptr @fmt, ptr @s.got, i64 %got)
  %sum1 = add i64 %sum, %got
  %i1 = add i64 %i, 1
  %again = icmp ult i64 %i1, %n
  br i1 %again, label %loop, label %end

end:
  %slot = getelementptr inbounds i8, ptr %c1, i64 8
  %back = load ptr, ptr %slot
  call swiftcc void %back(ptr swiftasync %c1, i64 %sum1)
  %u = call i1 @llvm.coro.end(ptr %hdl, i1 false, token none)
  unreachable
}

define swiftcc void @finished(ptr swiftasync %ctx, i64 %v) {
  call i32 (ptr, ...) @printf(ptr @fmt, ptr @s.done, i64 %v)
  ret void
}

define i32 @main() {
  %szp = getelementptr inbounds <{ i32, i32 }>, ptr @producer_fp, i32 0, i32 1
  %sz32 = load i32, ptr %szp
  %sz = zext i32 %sz32 to i64
  %ctx = call ptr @calloc(i64 1, i64 %sz)
  %ret = getelementptr inbounds i8, ptr %ctx, i64 8
  store ptr @finished, ptr %ret
  call swiftcc void @producer(ptr swiftasync %ctx, i64 3)
  call void @run()
  call void @free(ptr %ctx)
  ret i32 0
}

declare token @llvm.coro.id.async(i32, i32, i32, ptr)
declare ptr @llvm.coro.begin(token, ptr)
declare ptr @llvm.coro.async.resume()
declare { ptr, i64 } @llvm.coro.suspend.async(i32, ptr, ptr, ...)
declare i1 @llvm.coro.end(ptr, i1, token)
