; ERROR-AT: 7:19
; Truncated file: the function body is cut off in the middle of an
; instruction and the file has no final newline. The parser runs out of
; input where it expects the second operand, so the error is reported at
; the end of the file (just past the last character).
define i32 @f(i32 %a) {
  %x = add i32 %a,