; FINDING: error kxs-label-slot 10:3
; A null label slot.

declare void @__kxs_suspend_point(i32)
declare void @__kxs_begin(ptr, ptr)

define ptr @f(ptr %cont) {
entry:
  %frame = getelementptr inbounds i8, ptr %cont, i64 8
  call void @__kxs_begin(ptr null, ptr %frame)
  call void @__kxs_suspend_point(i32 1)
  ret ptr null
}
