; ERROR-AT: 5:8
; An instruction with an unknown opcode: the error is at `frobnicate`.
define i32 @f(i32 %a) {
entry:
  %x = frobnicate i32 %a, 1
  ret i32 %x
}
