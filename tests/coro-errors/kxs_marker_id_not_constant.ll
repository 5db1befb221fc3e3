; FINDING: error kxs-marker-id 10:3
; A kxs suspend marker whose id is a run-time value: the transform names
; each suspend point by its constant id, so it refuses this.

declare void @__kxs_suspend_point(i32)

define ptr @f(ptr %cont, i32 %n) {
entry:
  %id = add i32 %n, 1
  call void @__kxs_suspend_point(i32 %id)
  ret ptr null
}
