; Suspends in a loop: each of three iterations suspends twice (once after
; printing the counter, once after printing its square), then the loop ends at
; a final suspend. main drives it with coro.done: resume until done, counting
; the resumes, then destroys it.

define ptr @co(i32 %n) presplitcoroutine {
entry:
  %id = call token @llvm.coro.id(i32 0, ptr null, ptr null, ptr null)
  %size = call i64 @llvm.coro.size.i64()
  %mem = call ptr @malloc(i64 %size)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr %mem)
  br label %head

head:
  %i = phi i32 [ 1, %entry ], [ %i.next, %second.resumed ]
  %more = icmp sle i32 %i, %n
  br i1 %more, label %body, label %done

body:
  call void @print(i32 %i)
  %s1 = call i8 @llvm.coro.suspend(token none, i1 false)
  switch i8 %s1, label %suspend [ i8 0, label %first.resumed
                                  i8 1, label %cleanup ]

first.resumed:
  %sq = mul i32 %i, %i
  call void @print(i32 %sq)
  %s2 = call i8 @llvm.coro.suspend(token none, i1 false)
  switch i8 %s2, label %suspend [ i8 0, label %second.resumed
                                  i8 1, label %cleanup ]

second.resumed:
  %i.next = add i32 %i, 1
  br label %head

done:
  call void @print(i32 100)
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
  %h = call ptr @co(i32 3)
  br label %while

while:
  %count = phi i32 [ 0, %entry ], [ %count.next, %while ]
  call void @llvm.coro.resume(ptr %h)
  %count.next = add i32 %count, 1
  %d = call i1 @llvm.coro.done(ptr %h)
  br i1 %d, label %end, label %while

end:
  call void @print(i32 %count.next)
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
declare token @llvm.coro.save(ptr)
declare i8 @llvm.coro.suspend(token, i1)
declare ptr @llvm.coro.free(token, ptr)
declare i1 @llvm.coro.end(ptr, i1, token)
declare void @llvm.coro.resume(ptr)
declare void @llvm.coro.destroy(ptr)
declare i1 @llvm.coro.done(ptr)
declare ptr @llvm.coro.promise(ptr, i32, i1)
