; Non-coroutine module: the "after splitting" form of @f from the LLVM
; Coroutines doc, written out by hand: the coroutine frame type
;   %f.frame = type { ptr, ptr, i32 }   (resume fn, destroy fn, spill)
; the ramp @f storing @f.resume/@f.destroy into the frame, and the outlined
; @f.resume/@f.destroy. The doc's listing mixes %f.frame/%f.Frame and uses
; undefined %FramePtr/%n.val; those are fixed here. main plays the part of
; coro.resume/coro.destroy by loading the function pointers from the frame.
; Stresses typed struct GEPs, pointer-to-function-pointer stores/loads and
; indirect fastcc calls through loaded `ptr` values.
; Opaque-pointer (LLVM 19) dialect.
; EXPECT-OUTPUT: 4 5 6

%f.frame = type { ptr, ptr, i32 }

@.fmt = private unnamed_addr constant [4 x i8] c"%d\0A\00", align 1

define ptr @f(i32 %n) {
entry:
  %0 = call noalias ptr @malloc(i32 24)
  %1 = getelementptr %f.frame, ptr %0, i32 0, i32 0
  store ptr @f.resume, ptr %1
  %2 = getelementptr %f.frame, ptr %0, i32 0, i32 1
  store ptr @f.destroy, ptr %2
  %inc = add nsw i32 %n, 1
  %inc.spill.addr = getelementptr inbounds %f.frame, ptr %0, i32 0, i32 2
  store i32 %inc, ptr %inc.spill.addr
  call void @print(i32 %n)
  ret ptr %0
}

define internal fastcc void @f.resume(ptr %frame.ptr.resume) {
entry:
  %inc.spill.addr = getelementptr %f.frame, ptr %frame.ptr.resume, i64 0, i32 2
  %inc.spill = load i32, ptr %inc.spill.addr, align 4
  %inc = add i32 %inc.spill, 1
  store i32 %inc, ptr %inc.spill.addr, align 4
  tail call void @print(i32 %inc.spill)
  ret void
}

define internal fastcc void @f.destroy(ptr %frame.ptr.destroy) {
entry:
  tail call void @free(ptr %frame.ptr.destroy)
  ret void
}

define i32 @main() {
entry:
  %hdl = call ptr @f(i32 4)
  %resume.addr = getelementptr inbounds %f.frame, ptr %hdl, i64 0, i32 0
  %resume.fn = load ptr, ptr %resume.addr, align 8
  call fastcc void %resume.fn(ptr %hdl)
  %resume.fn2 = load ptr, ptr %resume.addr, align 8
  call fastcc void %resume.fn2(ptr %hdl)
  %destroy.addr = getelementptr inbounds %f.frame, ptr %hdl, i64 0, i32 1
  %destroy.fn = load ptr, ptr %destroy.addr, align 8
  call fastcc void %destroy.fn(ptr %hdl)
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
