; Stresses: operand bundles (several on one call, empty bundles, bundles
; with multiple and typed operands, quoted bundle tags, on intrinsic calls
; and on invoke), musttail and tail/notail call markers, calling
; conventions and attributes at call sites, musttail with varargs
; forwarding, and musttail through a bitcast-free indirect call.

declare void @callee(i32)
declare i32 @target(i32, ptr)
declare void @llvm.assume(i1)
declare i32 @vtarget(i32, ...)
declare i32 @__gxx_personality_v0(...)

define void @bundles(i32 %x, ptr %p) personality ptr @__gxx_personality_v0 {
entry:
  call void @callee(i32 %x) [ "deopt"(i32 %x, ptr %p, i64 7), "funclet-free"(), "gc-live"(ptr %p) ]
  call void @callee(i32 1) [ "unknown"() ]
  call void @llvm.assume(i1 true) [ "align"(ptr %p, i64 16), "nonnull"(ptr %p) ]
  call void @llvm.assume(i1 true) [ "dereferenceable"(ptr %p, i64 8) ]
  call void @callee(i32 2) [ "tag with spaces"(i32 1) ]
  invoke void @callee(i32 3) [ "deopt"() ]
          to label %ok unwind label %lp

ok:
  notail call void @callee(i32 4)
  tail call fastcc void @fast(i32 5) #0
  ret void

lp:
  %l = landingpad { ptr, i32 } cleanup
  resume { ptr, i32 } %l
}

define fastcc void @fast(i32 %x) {
entry:
  ret void
}

define i32 @forward(i32 %a, ptr %b) {
entry:
  %r = musttail call i32 @target(i32 %a, ptr %b)
  ret i32 %r
}

define i32 @forward.indirect(i32 %a, ptr %b) {
entry:
  %r = musttail call i32 %b(i32 %a, ptr %b)
  ret i32 %r
}

define i32 @forward.varargs(i32 %a, ...) {
entry:
  %r = musttail call i32 (i32, ...) @vtarget(i32 %a, ...)
  ret i32 %r
}

define void @forward.void(i32 %x) {
entry:
  musttail call void @callee(i32 %x)
  ret void
}

define cc 10 i32 @ghc(i32 %x) {
entry:
  %r = tail call cc 10 i32 @ghc(i32 %x)
  ret i32 %r
}

attributes #0 = { nounwind }
