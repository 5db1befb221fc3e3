; A suspend function that names its slots but never suspends (a DSL function whose body has no
; suspending call): llcoro removes its __kxs_begin call, which is defined nowhere, so the program
; links and runs. Before, such a function was not lowered (only marker calls were looked for) and
; the program failed to link on __kxs_begin.

declare void @__kxs_begin(ptr, ptr)
declare i32 @printf(ptr, ...)

@.fmt = private constant [13 x i8] c"value %d %d\0A\00"

define ptr @no_suspend(ptr %cont, i32 %n) {
entry:
  %frame.slot = getelementptr inbounds { ptr, ptr }, ptr %cont, i32 0, i32 1
  call void @__kxs_begin(ptr %cont, ptr %frame.slot)
  %label = load ptr, ptr %cont, align 8
  %none = icmp eq ptr %label, null
  %z = zext i1 %none to i32
  %m = mul i32 %n, 3
  call i32 (ptr, ...) @printf(ptr @.fmt, i32 %m, i32 %z)
  ret ptr null
}

define i32 @main() {
  %1 = alloca { ptr, ptr }, align 8
  store { ptr, ptr } zeroinitializer, ptr %1, align 8
  %2 = call ptr @no_suspend(ptr %1, i32 14)
  ret i32 0
}

; EXPECT:
; value 42 1
