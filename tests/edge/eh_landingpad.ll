; Stresses: Itanium-style exception handling: personality functions,
; invoke (with a void and a value result, with attributes and a bundle),
; landingpad with cleanup, catch and filter clauses (including an empty
; filter array), resume, and a value defined by invoke used only in the
; normal destination.

@_ZTIi = external constant ptr
@_ZTId = external constant ptr

declare i32 @__gxx_personality_v0(...)
declare i32 @may_throw(i32)
declare void @cleanup()
declare ptr @__cxa_begin_catch(ptr)
declare void @__cxa_end_catch()
declare i32 @llvm.eh.typeid.for.p0(ptr)

define i32 @f(i32 %x) personality ptr @__gxx_personality_v0 {
entry:
  %r = invoke i32 @may_throw(i32 %x) #0
          to label %ok unwind label %lpad

ok:
  invoke void @cleanup() [ "unrelated"(i32 %r) ]
          to label %done unwind label %lpad.cleanup

done:
  ret i32 %r

lpad:
  %lp = landingpad { ptr, i32 }
          catch ptr @_ZTIi
          catch ptr null
          filter [1 x ptr] [ptr @_ZTId]
  %sel = extractvalue { ptr, i32 } %lp, 1
  %tid = call i32 @llvm.eh.typeid.for.p0(ptr @_ZTIi)
  %is.int = icmp eq i32 %sel, %tid
  br i1 %is.int, label %catch.int, label %rethrow

catch.int:
  %exn = extractvalue { ptr, i32 } %lp, 0
  %obj = call ptr @__cxa_begin_catch(ptr %exn)
  %v = load i32, ptr %obj, align 4
  call void @__cxa_end_catch()
  ret i32 %v

rethrow:
  resume { ptr, i32 } %lp

lpad.cleanup:
  %lp2 = landingpad { ptr, i32 }
          cleanup
          filter [0 x ptr] zeroinitializer
  call void @cleanup()
  resume { ptr, i32 } %lp2
}

attributes #0 = { noinline }
