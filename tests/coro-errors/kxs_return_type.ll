; FINDING: error kxs-return-type 9:3
; A suspend function must return ptr (COROUTINE_SUSPENDED) or void: there
; is nothing else to return when it suspends.

declare void @__kxs_suspend_point(i32)

define i32 @f(ptr %cont) {
entry:
  call void @__kxs_suspend_point(i32 1)
  ret i32 0
}
