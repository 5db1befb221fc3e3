; ERROR-AT: 7:32
; Branch to a block that does not exist in the function: the error is at
; the label operand %nowhere (reported when the function ends, but located
; at the use).
define void @f(i1 %c) {
entry:
  br i1 %c, label %exit, label %nowhere

exit:
  ret void
}
