; FINDING: error kxs-no-frame-slot 10:3
; %x is live across the suspend point, so it needs a spill frame, but the
; function names no frame slot (no __kxs_begin call).

declare void @__kxs_suspend_point(i32)
declare i32 @next()

define ptr @f(ptr %cont) {
entry:
  %x = call i32 @next()
  call void @__kxs_suspend_point(i32 1)
  %y = add i32 %x, 1
  call i32 @next()
  ret ptr null
}
