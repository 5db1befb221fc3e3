; LLVM 22 only (coro.end returns void; llvm.coro.is_in_ramp). The unwind
; coro.end in a landing pad followed by the LLVM 22 way of asking where it
; runs: coro.is_in_ramp is true in the ramp (which continues with ramp-only
; cleanup) and false in the resume and destroy parts (which unwind at once).
; The landing pad is never taken. is_in_ramp is also used on the normal path:
; each loop iteration prints 1000 + is_in_ramp after the value, so the ramp
; prints 1001 and every resume 1000.
; main: ramp with 5, resume twice, destroy.

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
  %r = call i1 @llvm.coro.is_in_ramp()
  %rz = zext i1 %r to i32
  %code = add i32 %rz, 1000
  call void @print(i32 %code)
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
  call void @llvm.coro.end(ptr %hdl, i1 false, token none)
  ret ptr %hdl

lpad:
  %lp = landingpad { ptr, i32 } cleanup
  call void @llvm.coro.end(ptr null, i1 true, token none)
  %in.ramp = call i1 @llvm.coro.is_in_ramp()
  br i1 %in.ramp, label %cleanup.cont, label %eh.resume

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
declare void @llvm.coro.end(ptr, i1, token)
declare i1 @llvm.coro.is_in_ramp()
declare void @llvm.coro.resume(ptr)
declare void @llvm.coro.destroy(ptr)
declare i1 @llvm.coro.done(ptr)
declare ptr @llvm.coro.promise(ptr, i32, i1)
