; Final suspend point (LLVM Coroutines doc, "Final Suspend"): the
; Python-generator shaped coroutine: promise current_value, an injected
; initial suspend, one suspend per yielded value and an injected final
; suspend (second coro.suspend argument true, resume edge goes to a trap).
; main keeps resuming until coro.done reports the final suspend point, then
; destroys the coroutine; after each resume that is not done it prints the
; promise (read via coro.promise).
; Opaque-pointer (LLVM 19) dialect.
; LLVM 22 rejects this module (its llvm.coro.end returns void; LLVM 19's
; returns i1), so it is checked against LLVM 19 only.
; EXPECT-OUTPUT: 0 1 2 3

@.fmt = private unnamed_addr constant [4 x i8] c"%d\0A\00", align 1

define ptr @f(i32 %n) presplitcoroutine {
entry:
  %current_value = alloca i32, align 4
  %id = call token @llvm.coro.id(i32 0, ptr %current_value, ptr null, ptr null)
  %size = call i32 @llvm.coro.size.i32()
  %alloc = call ptr @malloc(i32 %size)
  %hdl = call noalias ptr @llvm.coro.begin(token %id, ptr %alloc)
  %s.init = call i8 @llvm.coro.suspend(token none, i1 false)
  switch i8 %s.init, label %suspend [i8 0, label %for.cond
                                     i8 1, label %cleanup]

for.cond:
  %i = phi i32 [ 0, %entry ], [ %i.next, %for.inc ]
  %more = icmp slt i32 %i, %n
  br i1 %more, label %for.body, label %while.end

for.body:
  store i32 %i, ptr %current_value, align 4
  %s.yield = call i8 @llvm.coro.suspend(token none, i1 false)
  switch i8 %s.yield, label %suspend [i8 0, label %for.inc
                                      i8 1, label %cleanup]

for.inc:
  %i.next = add nsw i32 %i, 1
  br label %for.cond

while.end:
  %s.final = call i8 @llvm.coro.suspend(token none, i1 true)
  switch i8 %s.final, label %suspend [i8 0, label %trap
                                      i8 1, label %cleanup]

trap:
  call void @llvm.trap()
  unreachable

cleanup:
  %mem = call ptr @llvm.coro.free(token %id, ptr %hdl)
  call void @free(ptr %mem)
  br label %suspend

suspend:
  %unused = call i1 @llvm.coro.end(ptr %hdl, i1 false, token none)
  ret ptr %hdl
}

define i32 @main() {
entry:
  %hdl = call ptr @f(i32 4)
  %promise.raw = call ptr @llvm.coro.promise(ptr %hdl, i32 4, i1 false)
  br label %while

while:
  call void @llvm.coro.resume(ptr %hdl)
  %done = call i1 @llvm.coro.done(ptr %hdl)
  br i1 %done, label %end, label %yielded

yielded:
  %val = load i32, ptr %promise.raw, align 4
  call void @print(i32 %val)
  br label %while

end:
  call void @llvm.coro.destroy(ptr %hdl)
  ret i32 0
}

define void @print(i32 %v) {
entry:
  %fmt = getelementptr inbounds [4 x i8], ptr @.fmt, i64 0, i64 0
  %r = call i32 (ptr, ...) @printf(ptr %fmt, i32 %v)
  ret void
}

declare i32 @printf(ptr, ...)
declare noalias ptr @malloc(i32)
declare void @free(ptr)
declare void @llvm.trap()

declare token @llvm.coro.id(i32, ptr, ptr, ptr)
declare i32 @llvm.coro.size.i32()
declare ptr @llvm.coro.begin(token, ptr)
declare i8 @llvm.coro.suspend(token, i1)
declare ptr @llvm.coro.free(token, ptr)
declare i1 @llvm.coro.end(ptr, i1, token)
declare ptr @llvm.coro.promise(ptr, i32, i1)
declare i1 @llvm.coro.done(ptr)
declare void @llvm.coro.resume(ptr)
declare void @llvm.coro.destroy(ptr)
