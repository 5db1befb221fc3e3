; ERROR-AT: 9:9
; A metadata string with no closing quote: the error is at the opening
; quote of the string (the `"` after `!`), which runs to the end of the
; file.
define void @f() {
  ret void
}

!0 = !{!"a } ; b {}
