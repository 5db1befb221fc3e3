; FINDING: error kxs-label-slot 13:3
; The seed's original defect: the label slot is a fresh alloca, so the
; resume address stored there is gone when the function returns and the
; dispatch never fires. llcoro refuses a label slot on the stack.

declare void @__kxs_suspend_point(i32)
declare void @__kxs_begin(ptr, ptr)

define ptr @f(ptr %cont) {
entry:
  %slot = alloca ptr, align 8
  store ptr null, ptr %slot, align 8
  call void @__kxs_begin(ptr %slot, ptr null)
  call void @__kxs_suspend_point(i32 1)
  ret ptr null
}
