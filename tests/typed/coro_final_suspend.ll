; Final suspend point (LLVM Coroutines doc, "Final Suspend"): the
; Python-generator shaped coroutine: promise current_value, an injected
; initial suspend, one suspend per yielded value and an injected final
; suspend (second coro.suspend argument true, resume edge goes to a trap).
; main keeps resuming until coro.done reports the final suspend point, then
; destroys the coroutine; after each resume that is not done it prints the
; promise (read via coro.promise).
; Typed-pointer (LLVM 14) dialect.
; EXPECT-OUTPUT: 0 1 2 3

@.fmt = private unnamed_addr constant [4 x i8] c"%d\0A\00", align 1

define i8* @f(i32 %n) "coroutine.presplit"="0" {
entry:
  %current_value = alloca i32, align 4
  %pv = bitcast i32* %current_value to i8*
  %id = call token @llvm.coro.id(i32 0, i8* %pv, i8* null, i8* null)
  %size = call i32 @llvm.coro.size.i32()
  %alloc = call i8* @malloc(i32 %size)
  %hdl = call noalias i8* @llvm.coro.begin(token %id, i8* %alloc)
  %s.init = call i8 @llvm.coro.suspend(token none, i1 false)
  switch i8 %s.init, label %suspend [i8 0, label %for.cond
                                     i8 1, label %cleanup]

for.cond:
  %i = phi i32 [ 0, %entry ], [ %i.next, %for.inc ]
  %more = icmp slt i32 %i, %n
  br i1 %more, label %for.body, label %while.end

for.body:
  store i32 %i, i32* %current_value, align 4
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
  %mem = call i8* @llvm.coro.free(token %id, i8* %hdl)
  call void @free(i8* %mem)
  br label %suspend

suspend:
  %unused = call i1 @llvm.coro.end(i8* %hdl, i1 false)
  ret i8* %hdl
}

define i32 @main() {
entry:
  %hdl = call i8* @f(i32 4)
  %promise.raw = call i8* @llvm.coro.promise(i8* %hdl, i32 4, i1 false)
  %promise = bitcast i8* %promise.raw to i32*
  br label %while

while:
  call void @llvm.coro.resume(i8* %hdl)
  %done = call i1 @llvm.coro.done(i8* %hdl)
  br i1 %done, label %end, label %yielded

yielded:
  %val = load i32, i32* %promise, align 4
  call void @print(i32 %val)
  br label %while

end:
  call void @llvm.coro.destroy(i8* %hdl)
  ret i32 0
}

define void @print(i32 %v) {
entry:
  %fmt = getelementptr inbounds [4 x i8], [4 x i8]* @.fmt, i64 0, i64 0
  %r = call i32 (i8*, ...) @printf(i8* %fmt, i32 %v)
  ret void
}

declare i32 @printf(i8*, ...)
declare noalias i8* @malloc(i32)
declare void @free(i8*)
declare void @llvm.trap()

declare token @llvm.coro.id(i32, i8*, i8*, i8*)
declare i32 @llvm.coro.size.i32()
declare i8* @llvm.coro.begin(token, i8*)
declare i8 @llvm.coro.suspend(token, i1)
declare i8* @llvm.coro.free(token, i8*)
declare i1 @llvm.coro.end(i8*, i1)
declare i8* @llvm.coro.promise(i8*, i32, i1)
declare i1 @llvm.coro.done(i8*)
declare void @llvm.coro.resume(i8*)
declare void @llvm.coro.destroy(i8*)
