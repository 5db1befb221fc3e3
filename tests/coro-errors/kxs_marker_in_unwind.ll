; FINDING: error kxs-marker-in-unwind 20:3
; A suspend point inside a landing pad's code: the function would return
; in the middle of handling an exception.

declare void @__kxs_suspend_point(i32)
declare void @__kxs_begin(ptr, ptr)
declare void @may_throw()
declare i32 @__gxx_personality_v0(...)

define ptr @f(ptr %cont) personality ptr @__gxx_personality_v0 {
entry:
  %frame = getelementptr inbounds i8, ptr %cont, i64 8
  call void @__kxs_begin(ptr %cont, ptr %frame)
  invoke void @may_throw()
          to label %ok unwind label %lp
ok:
  ret ptr null
lp:
  %x = landingpad { ptr, i32 } cleanup
  call void @__kxs_suspend_point(i32 3)
  resume { ptr, i32 } %x
}
