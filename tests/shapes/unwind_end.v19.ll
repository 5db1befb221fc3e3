; LLVM 19 only (its coro.end returns i1). The landingpad form of the unwind
; coro.end with its result used as the document describes: true means "in a
; resume or destroy part", where the landing pad unwinds to the caller at once;
; false (the ramp) continues with ramp-only cleanup. The invoke never unwinds,
; so the landing pad is never taken; the module must still lower and verify.
; main: ramp with 5, resume twice, destroy; prints 5, 6, 7, -1.

define ptr @co(i32 %n) presplitcoroutine personality ptr @personality {
entry:
  %id = call token @llvm.coro.id(i32 0, ptr null, ptr null, ptr null)
  %size = call i64 @llvm.coro.size.i64()
  %mem = call ptr @malloc(i64 %size)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr %mem)
  br label %loop

loop:
  %i = phi i32 [ %n, %entry ], [ %v, %resume ]
  call void @print(i32 %i)
  %s = call i8 @llvm.coro.suspend(token none, i1 false)
  switch i8 %s, label %end [ i8 0, label %resume
                             i8 1, label %cleanup ]

resume:
  %v = invoke i32 @no_throw(i32 %i)
          to label %loop unwind label %lpad

cleanup:
  call void @print(i32 -1)
  %f = call ptr @llvm.coro.free(token %id, ptr %hdl)
  call void @free(ptr %f)
  br label %end

end:
  %u = call i1 @llvm.coro.end(ptr %hdl, i1 false, token none)
  ret ptr %hdl

lpad:
  %lp = landingpad { ptr, i32 } cleanup
  %in.resume = call i1 @llvm.coro.end(ptr null, i1 true, token none)
  br i1 %in.resume, label %eh.resume, label %cleanup.cont

cleanup.cont:
  call void @print(i32 -7)
  br label %eh.resume

eh.resume:
  resume { ptr, i32 } %lp
}

define i32 @no_throw(i32 %x) {
entry:
  %y = add i32 %x, 1
  ret i32 %y
}

define i32 @personality(...) {
entry:
  ret i32 0
}

define i32 @main() {
entry:
  %h = call ptr @co(i32 5)
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
declare token @llvm.coro.save(ptr)
declare i8 @llvm.coro.suspend(token, i1)
declare ptr @llvm.coro.free(token, ptr)
declare i1 @llvm.coro.end(ptr, i1, token)
declare void @llvm.coro.resume(ptr)
declare void @llvm.coro.destroy(ptr)
declare i1 @llvm.coro.done(ptr)
declare ptr @llvm.coro.promise(ptr, i32, i1)
