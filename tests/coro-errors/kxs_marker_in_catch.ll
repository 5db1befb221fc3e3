; FINDING: error kxs-marker-in-unwind 36:3
; A suspend point in a catch handler whose dispatch block has two landing pads before it (a try
; with a throw expression and a call, as clang emits it): no single landing pad dominates the
; handler, yet it runs only while the exception is caught (between __cxa_begin_catch and
; __cxa_end_catch). Suspending there would leave the exception caught while other coroutines
; run. The suspend after the handler ended (marker 2) is fine.

declare void @__kxs_suspend_point(i32)
declare void @__kxs_begin(ptr, ptr)
declare void @may_throw(i32)
declare ptr @__cxa_allocate_exception(i64)
declare void @__cxa_throw(ptr, ptr, ptr)
declare ptr @__cxa_begin_catch(ptr)
declare void @__cxa_end_catch()
declare i32 @__gxx_personality_v0(...)
@_ZTIi = external constant ptr

define ptr @f(ptr %cont, i32 %x) personality ptr @__gxx_personality_v0 {
entry:
  %frame.slot = getelementptr inbounds { ptr, ptr }, ptr %cont, i32 0, i32 1
  call void @__kxs_begin(ptr %cont, ptr %frame.slot)
  %one = icmp eq i32 %x, 1
  br i1 %one, label %throw, label %call
throw:
  %exn = call ptr @__cxa_allocate_exception(i64 4)
  store i32 1, ptr %exn, align 4
  invoke void @__cxa_throw(ptr %exn, ptr @_ZTIi, ptr null)
          to label %unreachable unwind label %lpad1
call:
  invoke void @may_throw(i32 %x)
          to label %try.cont unwind label %lpad2
catch:
  %e = phi { ptr, i32 } [ %l1, %lpad1 ], [ %l2, %lpad2 ]
  %p = extractvalue { ptr, i32 } %e, 0
  %caught = call ptr @__cxa_begin_catch(ptr %p)
  call void @__kxs_suspend_point(i32 1)
  call void @__cxa_end_catch()
  br label %try.cont
try.cont:
  call void @__kxs_suspend_point(i32 2)
  ret ptr null
lpad1:
  %l1 = landingpad { ptr, i32 } catch ptr null
  br label %catch
lpad2:
  %l2 = landingpad { ptr, i32 } catch ptr null
  br label %catch
unreachable:
  unreachable
}
