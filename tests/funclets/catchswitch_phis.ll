; Hand-written: the two funclet shapes that need a rewrite before the frame is built.
; - %v, a phi in the catchswitch's block, is used after a later suspend, so it is spilled; a
;   catchswitch's block can hold nothing else, so the phi moves to a cleanup funclet in front of it.
; - %w, a phi of a cleanup funclet that the catchswitch unwinds to, takes %a, which lives across
;   the first suspend and is reloaded; its reload cannot go in the catchswitch's block, so the pad
;   gets a dispatching block with a block per predecessor.
; Calls in funclets carry their "funclet" bundles; the lowered parts must keep them.
target triple = "x86_64-pc-windows-msvc"

define ptr @f(i32 %n) presplitcoroutine personality ptr @__CxxFrameHandler3 {
entry:
  %id = call token @llvm.coro.id(i32 0, ptr null, ptr null, ptr null)
  %size = call i64 @llvm.coro.size.i64()
  %mem = call ptr @malloc(i64 %size)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr %mem)
  %a = add i32 %n, 1
  %s0 = call i8 @llvm.coro.suspend(token none, i1 false)
  switch i8 %s0, label %suspend [
    i8 0, label %resume0
    i8 1, label %cleanup
  ]

resume0:
  %b = add i32 %n, 2
  invoke void @may_throw(i32 %a)
          to label %next unwind label %dispatch

next:
  invoke void @may_throw(i32 %b)
          to label %other unwind label %dispatch

other:
  invoke void @may_throw(i32 0)
          to label %after unwind label %cleanpad

dispatch:
  %v = phi i32 [ %a, %resume0 ], [ %b, %next ]
  %cs = catchswitch within none [label %handler] unwind label %cleanpad

handler:
  %cp = catchpad within %cs [ptr null, i32 64, ptr null]
  call void @print(i32 %v) [ "funclet"(token %cp) ]
  catchret from %cp to label %caught

caught:
  %s1 = call i8 @llvm.coro.suspend(token none, i1 false)
  switch i8 %s1, label %suspend [
    i8 0, label %resume1
    i8 1, label %cleanup
  ]

resume1:
  call void @print(i32 %v)
  br label %after

cleanpad:
  %w = phi i32 [ %a, %dispatch ], [ %b, %other ]
  %cl = cleanuppad within none []
  call void @print(i32 %w) [ "funclet"(token %cl) ]
  %mem.c = call ptr @llvm.coro.free(token %id, ptr %hdl) [ "funclet"(token %cl) ]
  call void @free(ptr %mem.c) [ "funclet"(token %cl) ]
  cleanupret from %cl unwind to caller

after:
  %s2 = call i8 @llvm.coro.suspend(token none, i1 true)
  switch i8 %s2, label %suspend [
    i8 0, label %trap
    i8 1, label %cleanup
  ]

trap:
  unreachable

cleanup:
  %mem.f = call ptr @llvm.coro.free(token %id, ptr %hdl)
  call void @free(ptr %mem.f)
  br label %suspend

suspend:
  call i1 @llvm.coro.end(ptr %hdl, i1 false, token none)
  ret ptr %hdl
}

declare void @may_throw(i32)
declare void @print(i32)
declare i32 @__CxxFrameHandler3(...)
declare ptr @malloc(i64)
declare void @free(ptr)
declare token @llvm.coro.id(i32, ptr, ptr, ptr)
declare i64 @llvm.coro.size.i64()
declare ptr @llvm.coro.begin(token, ptr)
declare i8 @llvm.coro.suspend(token, i1)
declare ptr @llvm.coro.free(token, ptr)
declare i1 @llvm.coro.end(ptr, i1, token)
