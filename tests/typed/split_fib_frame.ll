; Non-coroutine module: the split form of the `fib` generator walked through
; in the early coroutine design notes (the minig example, co_yield i for
; i in 0..5): a frame type with a quoted member type name,
;   %fib.frame = type { void (%fib.frame*)*, void (%fib.frame*)*, i32,
;                       %"struct.minig::promise_type", i32 }
; the ramp @fib returning the generator through an sret pointer, @fib.resume
; and @fib.cleanup switching on the suspend index, @fib.destroy, and a @main
; that sums the yielded values (move_next/current_value inlined as helpers).
; Index 0 = initial suspend, 2 = at `co_yield`, 4 = final suspend.
; Stresses quoted type names, sret(T), nested struct GEPs, switch, function
; pointer loads and indirect fastcc calls. Typed-pointer (LLVM 14) dialect.
; EXPECT-OUTPUT: 0 1 2 3 4 10

%"struct.minig::promise_type" = type { i32 }
%struct.minig = type { %fib.frame* }
%fib.frame = type {
   void (%fib.frame*)*,             ; resumeFnPtr
   void (%fib.frame*)*,             ; destroyFnPtr
   i32,                             ; suspend index
   %"struct.minig::promise_type",   ; promise
   i32                              ; variable i
}

@.fmt = private unnamed_addr constant [4 x i8] c"%d\0A\00", align 1

; allocates coroutine frame
; prepare return value
; initialize resumeFn, destroyFn and suspendIndex fields
define void @fib(%struct.minig* noalias sret(%struct.minig) %agg.result) {
entry:
  %0 = zext i32 32 to i64
  %call = call noalias i8* @_Znwm(i64 %0) ; ::operator new
  %frame = bitcast i8* %call to %fib.frame*
  %1 = getelementptr %fib.frame, %fib.frame* %frame, i32 0, i32 0
  store void (%fib.frame*)* @fib.resume, void (%fib.frame*)** %1
  %2 = getelementptr %fib.frame, %fib.frame* %frame, i32 0, i32 1
  store void (%fib.frame*)* @fib.destroy, void (%fib.frame*)** %2
  %3 = getelementptr %fib.frame, %fib.frame* %frame, i32 0, i32 2
  store i32 0, i32* %3
  br label %coro.ret

coro.ret:                                         ; preds = %entry
  %4 = getelementptr inbounds %struct.minig, %struct.minig* %agg.result, i32 0, i32 0
  store %fib.frame* %frame, %fib.frame** %4, align 8
  ret void
}

define internal fastcc void @fib.resume(%fib.frame* %frame.ptr) {
entry:
  %0 = getelementptr %fib.frame, %fib.frame* %frame.ptr, i32 0, i32 2
  %resume.index = load i32, i32* %0
  %i.addr = getelementptr %fib.frame, %fib.frame* %frame.ptr, i32 0, i32 4
  switch i32 %resume.index, label %unreachable [
    i32 0, label %resume.point.0
    i32 2, label %resume.point.2
  ]

resume.point.0:
  br label %for.cond

resume.point.2:
  %i.old = load i32, i32* %i.addr, align 4
  %i.inc = add nsw i32 %i.old, 1
  br label %for.cond

for.cond:
  %i = phi i32 [ 0, %resume.point.0 ], [ %i.inc, %resume.point.2 ]
  store i32 %i, i32* %i.addr, align 4
  %cmp = icmp slt i32 %i, 5
  br i1 %cmp, label %yield, label %final

yield:
  %promise.value = getelementptr inbounds %fib.frame, %fib.frame* %frame.ptr, i32 0, i32 3, i32 0
  store i32 %i, i32* %promise.value, align 4
  store i32 2, i32* %0, align 4
  ret void

final:
  store i32 4, i32* %0, align 4
  ret void

unreachable:
  unreachable
}

; fib has no cleanup, so fib.cleanup only checks the index
define internal fastcc void @fib.cleanup(%fib.frame* %frame.ptr) {
entry:
  %0 = getelementptr %fib.frame, %fib.frame* %frame.ptr, i32 0, i32 2
  %resume.index = load i32, i32* %0
  switch i32 %resume.index, label %unreachable [
    i32 0, label %cleanup.point.0
    i32 2, label %cleanup.point.2
    i32 4, label %cleanup.point.4
  ]

cleanup.point.0:
  ret void

cleanup.point.2:
  ret void

cleanup.point.4:
  ret void

unreachable:
  unreachable
}

define internal fastcc void @fib.destroy(%fib.frame* %frame.ptr) {
entry:
  %frame.void.ptr = bitcast %fib.frame* %frame.ptr to i8*
  call fastcc void @fib.cleanup(%fib.frame* %frame.ptr)
  br label %coro.destroy.label

coro.destroy.label:                               ; preds = %entry
  call void @_ZdlPv(i8* %frame.void.ptr)          ; ::operator delete
  ret void
}

define i1 @move_next(%struct.minig* %g) {
entry:
  %h.addr = getelementptr inbounds %struct.minig, %struct.minig* %g, i64 0, i32 0
  %h = load %fib.frame*, %fib.frame** %h.addr, align 8
  %fn.addr = getelementptr inbounds %fib.frame, %fib.frame* %h, i64 0, i32 0
  %fn = load void (%fib.frame*)*, void (%fib.frame*)** %fn.addr, align 8
  call fastcc void %fn(%fib.frame* %h)
  %idx.addr = getelementptr inbounds %fib.frame, %fib.frame* %h, i64 0, i32 2
  %idx = load i32, i32* %idx.addr, align 4
  %more = icmp ne i32 %idx, 4
  ret i1 %more
}

define i32 @current_value(%struct.minig* %g) {
entry:
  %h.addr = getelementptr inbounds %struct.minig, %struct.minig* %g, i64 0, i32 0
  %h = load %fib.frame*, %fib.frame** %h.addr, align 8
  %p = getelementptr inbounds %fib.frame, %fib.frame* %h, i64 0, i32 3, i32 0
  %v = load i32, i32* %p, align 4
  ret i32 %v
}

define i32 @main() {
entry:
  %g = alloca %struct.minig, align 8
  call void @fib(%struct.minig* sret(%struct.minig) %g)
  br label %while.cond

while.cond:
  %sum = phi i32 [ 0, %entry ], [ %sum.next, %while.body ]
  %more = call i1 @move_next(%struct.minig* %g)
  br i1 %more, label %while.body, label %while.end

while.body:
  %v = call i32 @current_value(%struct.minig* %g)
  call void @print(i32 %v)
  %sum.next = add nsw i32 %sum, %v
  br label %while.cond

while.end:
  call void @print(i32 %sum)
  %h.addr = getelementptr inbounds %struct.minig, %struct.minig* %g, i64 0, i32 0
  %h = load %fib.frame*, %fib.frame** %h.addr, align 8
  %d.addr = getelementptr inbounds %fib.frame, %fib.frame* %h, i64 0, i32 1
  %d = load void (%fib.frame*)*, void (%fib.frame*)** %d.addr, align 8
  call fastcc void %d(%fib.frame* %h)
  %ret = sub nsw i32 %sum, 10
  ret i32 %ret
}

define void @print(i32 %v) {
entry:
  %fmt = getelementptr inbounds [4 x i8], [4 x i8]* @.fmt, i64 0, i64 0
  %r = call i32 (i8*, ...) @printf(i8* %fmt, i32 %v)
  ret void
}

declare i32 @printf(i8*, ...)
declare noalias i8* @_Znwm(i64)
declare void @_ZdlPv(i8*)
