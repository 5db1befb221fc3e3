; ERROR-AT: 6:3
; A local value defined twice: the error is at the second definition.
define i32 @f(i32 %a) {
entry:
  %x = add i32 %a, 1
  %x = add i32 %a, 2
  ret i32 %x
}
