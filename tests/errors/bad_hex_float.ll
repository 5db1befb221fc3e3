; ERROR-AT: 6:12
; A hex floating-point literal whose kind letter is lower case (0xh
; instead of 0xH) is not a valid token: the error is at the literal.
define half @f() {
entry:
  ret half 0xh3C00
}
