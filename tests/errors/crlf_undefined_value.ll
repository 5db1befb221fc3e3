; ERROR-AT: 7:11
; CRLF line endings (every line ends in \r\n): line and column numbers
; must not be thrown off by the \r. The error is at the use of %nope.
define i32 @f(i32 %a) {
entry:
  %b = add i32 %a, 1
  ret i32 %nope
}
