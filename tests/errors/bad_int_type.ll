; ERROR-AT: 6:15
; i0 is not a valid integer type (bit widths start at 1): the error is at
; the type token i0.
define void @f() {
entry:
  %x = alloca i0
  ret void
}
