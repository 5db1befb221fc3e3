; ERROR-AT: 7:11
; A value defined as i64 is used where i32 is expected: the error is at the
; use of %a in the ret.
define i32 @f() {
entry:
  %a = add i64 0, 0
  ret i32 %a
}
