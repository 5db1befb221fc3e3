; coro.end in several blocks. LLVM allows only one fallthrough (non-unwind)
; coro.end per coroutine ("Only one coro.end can be marked as fallthrough"),
; so the suspended paths of both suspends and the cleanup all reach the one
; fallthrough coro.end in %end, and two more coro.ends sit in two landing pads,
; in the unwind form coro.end(ptr null, i1 true, token none), each followed by
; `resume`. The invokes never unwind (@no_throw returns), so the landing pads
; are never taken; the personality is a function of the module that is never
; called.
; main: ramp, resume (reaches the final suspend), done() = 1, destroy.

define ptr @co(i32 %n) presplitcoroutine personality ptr @personality {
entry:
  %id = call token @llvm.coro.id(i32 0, ptr null, ptr null, ptr null)
  %size = call i64 @llvm.coro.size.i64()
  %mem = call ptr @malloc(i64 %size)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr %mem)
  %a = invoke i32 @no_throw(i32 %n)
          to label %first unwind label %lpad.ramp

first:
  call void @print(i32 %a)
  %s0 = call i8 @llvm.coro.suspend(token none, i1 false)
  switch i8 %s0, label %end [ i8 0, label %body
                              i8 1, label %cleanup ]

body:
  %v = invoke i32 @no_throw(i32 %a)
          to label %after.call unwind label %lpad.body

after.call:
  call void @print(i32 %v)
  %fin = call i8 @llvm.coro.suspend(token none, i1 true)
  switch i8 %fin, label %end [ i8 0, label %never
                               i8 1, label %cleanup ]

cleanup:
  call void @print(i32 -1)
  %f = call ptr @llvm.coro.free(token %id, ptr %hdl)
  call void @free(ptr %f)
  br label %end

end:
  %u0 = call i1 @llvm.coro.end(ptr %hdl, i1 false, token none)
  ret ptr %hdl

lpad.ramp:
  %lp1 = landingpad { ptr, i32 } cleanup
  call void @print(i32 -98)
  %u1 = call i1 @llvm.coro.end(ptr null, i1 true, token none)
  resume { ptr, i32 } %lp1

lpad.body:
  %lp2 = landingpad { ptr, i32 } cleanup
  call void @print(i32 -99)
  %u2 = call i1 @llvm.coro.end(ptr null, i1 true, token none)
  resume { ptr, i32 } %lp2

never:
  unreachable
}

define i32 @no_throw(i32 %x) {
entry:
  %y = mul i32 %x, 3
  ret i32 %y
}

define i32 @personality(...) {
entry:
  ret i32 0
}

define i32 @main() {
entry:
  %h = call ptr @co(i32 7)
  call void @llvm.coro.resume(ptr %h)
  %d = call i1 @llvm.coro.done(ptr %h)
  %dz = zext i1 %d to i32
  call void @print(i32 %dz)
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
