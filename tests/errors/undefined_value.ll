; ERROR-AT: 6:11
; Use of an undefined local value: the error is at the use of %nope.
define i32 @f(i32 %a) {
entry:
  %b = add i32 %a, 1
  ret i32 %nope
}
