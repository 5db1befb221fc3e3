; ERROR-AT: 8:1
; The block `entry` has no terminator: where the parser expects another
; instruction it finds the label of the next block, so the error is at
; `next:`.
define i32 @f(i32 %a) {
entry:
  %x = add i32 %a, 1
next:
  ret i32 %x
}
