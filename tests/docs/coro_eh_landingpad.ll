; Landingpad-based exception handling inside a coroutine (LLVM Coroutines
; doc, "llvm.coro.end", landingpad exception model): the eh cleanup calls
; coro.end(ptr null, i1 true) and branches on the result: true (resume or
; destroy part) goes straight to `resume`, false (start part) runs the rest
; of the cleanup first (freeing the frame here).
; @check(v) prints v and throws an int (C++ ABI) when v == 6; main resumes
; the coroutine with invoke and catches it.
; Flow: f(4) prints 4 and suspends; resume prints 5; the second resume
; prints 6 and throws, the exception unwinds out of the resume part through
; the landingpad to main, which prints 99; the frame is then destroyed.
; Opaque-pointer (LLVM 19) dialect.
; LLVM 22 rejects this module (its llvm.coro.end returns void; LLVM 19's
; returns i1), so it is checked against LLVM 19 only.
; EXPECT-OUTPUT: 4 5 6 99

@.fmt = private unnamed_addr constant [4 x i8] c"%d\0A\00", align 1
@_ZTIi = external constant ptr

define ptr @f(i32 %n) presplitcoroutine personality ptr @__gxx_personality_v0 {
entry:
  %exn.slot = alloca ptr, align 8
  %ehselector.slot = alloca i32, align 4
  %id = call token @llvm.coro.id(i32 0, ptr null, ptr null, ptr null)
  %size = call i32 @llvm.coro.size.i32()
  %alloc = call ptr @malloc(i32 %size)
  %hdl = call noalias ptr @llvm.coro.begin(token %id, ptr %alloc)
  br label %loop

loop:
  %n.val = phi i32 [ %n, %entry ], [ %inc, %resume.point ]
  invoke void @check(i32 %n.val)
          to label %checked unwind label %lpad

checked:
  %0 = call i8 @llvm.coro.suspend(token none, i1 false)
  switch i8 %0, label %suspend [i8 0, label %resume.point
                                i8 1, label %cleanup]

resume.point:
  %inc = add nsw i32 %n.val, 1
  br label %loop

cleanup:
  %mem = call ptr @llvm.coro.free(token %id, ptr %hdl)
  call void @free(ptr %mem)
  br label %suspend

suspend:
  %unused = call i1 @llvm.coro.end(ptr %hdl, i1 false, token none)
  ret ptr %hdl

lpad:
  %lp = landingpad { ptr, i32 }
          cleanup
  %lp.exn = extractvalue { ptr, i32 } %lp, 0
  store ptr %lp.exn, ptr %exn.slot, align 8
  %lp.sel = extractvalue { ptr, i32 } %lp, 1
  store i32 %lp.sel, ptr %ehselector.slot, align 4
  br label %ehcleanup

ehcleanup:
  %InResumePart = call i1 @llvm.coro.end(ptr null, i1 true, token none)
  br i1 %InResumePart, label %eh.resume, label %cleanup.cont

cleanup.cont:
  ; rest of the cleanup: only needed during the initial invocation
  %mem.eh = call ptr @llvm.coro.free(token %id, ptr %hdl)
  call void @free(ptr %mem.eh)
  br label %eh.resume

eh.resume:
  %exn = load ptr, ptr %exn.slot, align 8
  %sel = load i32, ptr %ehselector.slot, align 4
  %lpad.val = insertvalue { ptr, i32 } undef, ptr %exn, 0
  %lpad.val29 = insertvalue { ptr, i32 } %lpad.val, i32 %sel, 1
  resume { ptr, i32 } %lpad.val29
}

define void @check(i32 %v) {
entry:
  call void @print(i32 %v)
  %bad = icmp eq i32 %v, 6
  br i1 %bad, label %throw, label %ok

ok:
  ret void

throw:
  %e = call ptr @__cxa_allocate_exception(i64 4)
  store i32 %v, ptr %e, align 4
  call void @__cxa_throw(ptr %e, ptr @_ZTIi, ptr null)
  unreachable
}

define i32 @main() personality ptr @__gxx_personality_v0 {
entry:
  %hdl = call ptr @f(i32 4)
  call void @llvm.coro.resume(ptr %hdl)
  invoke void @llvm.coro.resume(ptr %hdl)
          to label %done unwind label %catch

catch:
  %lp = landingpad { ptr, i32 }
          catch ptr null
  %exn = extractvalue { ptr, i32 } %lp, 0
  %obj = call ptr @__cxa_begin_catch(ptr %exn)
  call void @print(i32 99)
  call void @__cxa_end_catch()
  br label %done

done:
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
declare i32 @__gxx_personality_v0(...)
declare ptr @__cxa_allocate_exception(i64)
declare void @__cxa_throw(ptr, ptr, ptr)
declare ptr @__cxa_begin_catch(ptr)
declare void @__cxa_end_catch()

declare token @llvm.coro.id(i32, ptr, ptr, ptr)
declare i32 @llvm.coro.size.i32()
declare ptr @llvm.coro.begin(token, ptr)
declare i8 @llvm.coro.suspend(token, i1)
declare ptr @llvm.coro.free(token, ptr)
declare i1 @llvm.coro.end(ptr, i1, token)
declare void @llvm.coro.resume(ptr)
declare void @llvm.coro.destroy(ptr)
