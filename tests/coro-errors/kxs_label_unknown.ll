; FINDING: error kxs-label-slot 12:3
; The label slot's address comes from a call: llcoro cannot tell that it
; is the same place on every entry, so it refuses to guess.

declare void @__kxs_suspend_point(i32)
declare void @__kxs_begin(ptr, ptr)
declare ptr @lookup(ptr)

define ptr @f(ptr %cont) {
entry:
  %slot = call ptr @lookup(ptr %cont)
  call void @__kxs_begin(ptr %slot, ptr null)
  call void @__kxs_suspend_point(i32 1)
  ret ptr null
}
