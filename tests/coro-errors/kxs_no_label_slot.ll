; FINDING: error kxs-no-label-slot 9:3
; A suspend function with no __kxs_begin call and no pointer parameter:
; nothing says where the resume address is kept.

declare void @__kxs_suspend_point(i32)

define ptr @f(i32 %n) {
entry:
  call void @__kxs_suspend_point(i32 1)
  ret ptr null
}
