; Landingpad-based exception handling inside a coroutine (LLVM Coroutines
; doc, "llvm.coro.end", landingpad exception model): the eh cleanup calls
; coro.end(i8* null, i1 true) and branches on the result: true (resume or
; destroy part) goes straight to `resume`, false (start part) runs the rest
; of the cleanup first (freeing the frame here).
; @check(v) prints v and throws an int (C++ ABI) when v == 6; main resumes
; the coroutine with invoke and catches it.
; Flow: f(4) prints 4 and suspends; resume prints 5; the second resume
; prints 6 and throws, the exception unwinds out of the resume part through
; the landingpad to main, which prints 99; the frame is then destroyed.
; Typed-pointer (LLVM 14) dialect.
; EXPECT-OUTPUT: 4 5 6 99

@.fmt = private unnamed_addr constant [4 x i8] c"%d\0A\00", align 1
@_ZTIi = external constant i8*

define i8* @f(i32 %n) "coroutine.presplit"="0" personality i8* bitcast (i32 (...)* @__gxx_personality_v0 to i8*) {
entry:
  %exn.slot = alloca i8*, align 8
  %ehselector.slot = alloca i32, align 4
  %id = call token @llvm.coro.id(i32 0, i8* null, i8* null, i8* null)
  %size = call i32 @llvm.coro.size.i32()
  %alloc = call i8* @malloc(i32 %size)
  %hdl = call noalias i8* @llvm.coro.begin(token %id, i8* %alloc)
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
  %mem = call i8* @llvm.coro.free(token %id, i8* %hdl)
  call void @free(i8* %mem)
  br label %suspend

suspend:
  %unused = call i1 @llvm.coro.end(i8* %hdl, i1 false)
  ret i8* %hdl

lpad:
  %lp = landingpad { i8*, i32 }
          cleanup
  %lp.exn = extractvalue { i8*, i32 } %lp, 0
  store i8* %lp.exn, i8** %exn.slot, align 8
  %lp.sel = extractvalue { i8*, i32 } %lp, 1
  store i32 %lp.sel, i32* %ehselector.slot, align 4
  br label %ehcleanup

ehcleanup:
  %InResumePart = call i1 @llvm.coro.end(i8* null, i1 true)
  br i1 %InResumePart, label %eh.resume, label %cleanup.cont

cleanup.cont:
  ; rest of the cleanup: only needed during the initial invocation
  %mem.eh = call i8* @llvm.coro.free(token %id, i8* %hdl)
  call void @free(i8* %mem.eh)
  br label %eh.resume

eh.resume:
  %exn = load i8*, i8** %exn.slot, align 8
  %sel = load i32, i32* %ehselector.slot, align 4
  %lpad.val = insertvalue { i8*, i32 } undef, i8* %exn, 0
  %lpad.val29 = insertvalue { i8*, i32 } %lpad.val, i32 %sel, 1
  resume { i8*, i32 } %lpad.val29
}

define void @check(i32 %v) {
entry:
  call void @print(i32 %v)
  %bad = icmp eq i32 %v, 6
  br i1 %bad, label %throw, label %ok

ok:
  ret void

throw:
  %e = call i8* @__cxa_allocate_exception(i64 4)
  %e.i32 = bitcast i8* %e to i32*
  store i32 %v, i32* %e.i32, align 4
  call void @__cxa_throw(i8* %e, i8* bitcast (i8** @_ZTIi to i8*), i8* null)
  unreachable
}

define i32 @main() personality i8* bitcast (i32 (...)* @__gxx_personality_v0 to i8*) {
entry:
  %hdl = call i8* @f(i32 4)
  call void @llvm.coro.resume(i8* %hdl)
  invoke void @llvm.coro.resume(i8* %hdl)
          to label %done unwind label %catch

catch:
  %lp = landingpad { i8*, i32 }
          catch i8* null
  %exn = extractvalue { i8*, i32 } %lp, 0
  %obj = call i8* @__cxa_begin_catch(i8* %exn)
  call void @print(i32 99)
  call void @__cxa_end_catch()
  br label %done

done:
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
declare i32 @__gxx_personality_v0(...)
declare i8* @__cxa_allocate_exception(i64)
declare void @__cxa_throw(i8*, i8*, i8*)
declare i8* @__cxa_begin_catch(i8*)
declare void @__cxa_end_catch()

declare token @llvm.coro.id(i32, i8*, i8*, i8*)
declare i32 @llvm.coro.size.i32()
declare i8* @llvm.coro.begin(token, i8*)
declare i8 @llvm.coro.suspend(token, i1)
declare i8* @llvm.coro.free(token, i8*)
declare i1 @llvm.coro.end(i8*, i1)
declare void @llvm.coro.resume(i8*)
declare void @llvm.coro.destroy(i8*)
