; Non-coroutine module: the "after splitting" form of @f from the LLVM
; Coroutines doc, written out by hand: the coroutine frame type
;   %f.frame = type { void (%f.frame*)*, void (%f.frame*)*, i32 }
; the ramp @f storing @f.resume/@f.destroy into the frame, and the outlined
; @f.resume/@f.destroy. The doc's listing mixes %f.frame/%f.Frame and uses
; undefined %FramePtr/%n.val; those are fixed here. main plays the part of
; coro.resume/coro.destroy by loading the function pointers from the frame.
; Stresses typed struct GEPs, pointer-to-function-pointer stores/loads and
; indirect calls through `void (%f.frame*)*`.
; Typed-pointer (LLVM 14) dialect.
; EXPECT-OUTPUT: 4 5 6

%f.frame = type { void (%f.frame*)*, void (%f.frame*)*, i32 }

@.fmt = private unnamed_addr constant [4 x i8] c"%d\0A\00", align 1

define i8* @f(i32 %n) {
entry:
  %0 = call noalias i8* @malloc(i32 24)
  %frame = bitcast i8* %0 to %f.frame*
  %1 = getelementptr %f.frame, %f.frame* %frame, i32 0, i32 0
  store void (%f.frame*)* @f.resume, void (%f.frame*)** %1
  %2 = getelementptr %f.frame, %f.frame* %frame, i32 0, i32 1
  store void (%f.frame*)* @f.destroy, void (%f.frame*)** %2
  %inc = add nsw i32 %n, 1
  %inc.spill.addr = getelementptr inbounds %f.frame, %f.frame* %frame, i32 0, i32 2
  store i32 %inc, i32* %inc.spill.addr
  call void @print(i32 %n)
  ret i8* %0
}

define internal fastcc void @f.resume(%f.frame* %frame.ptr.resume) {
entry:
  %inc.spill.addr = getelementptr %f.frame, %f.frame* %frame.ptr.resume, i64 0, i32 2
  %inc.spill = load i32, i32* %inc.spill.addr, align 4
  %inc = add i32 %inc.spill, 1
  store i32 %inc, i32* %inc.spill.addr, align 4
  tail call void @print(i32 %inc.spill)
  ret void
}

define internal fastcc void @f.destroy(%f.frame* %frame.ptr.destroy) {
entry:
  %0 = bitcast %f.frame* %frame.ptr.destroy to i8*
  tail call void @free(i8* %0)
  ret void
}

define i32 @main() {
entry:
  %hdl = call i8* @f(i32 4)
  %frame = bitcast i8* %hdl to %f.frame*
  %resume.addr = getelementptr inbounds %f.frame, %f.frame* %frame, i64 0, i32 0
  %resume.fn = load void (%f.frame*)*, void (%f.frame*)** %resume.addr, align 8
  call fastcc void %resume.fn(%f.frame* %frame)
  %resume.fn2 = load void (%f.frame*)*, void (%f.frame*)** %resume.addr, align 8
  call fastcc void %resume.fn2(%f.frame* %frame)
  %destroy.addr = getelementptr inbounds %f.frame, %f.frame* %frame, i64 0, i32 1
  %destroy.fn = load void (%f.frame*)*, void (%f.frame*)** %destroy.addr, align 8
  call fastcc void %destroy.fn(%f.frame* %frame)
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
