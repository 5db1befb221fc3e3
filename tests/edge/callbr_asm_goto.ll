; Stresses: callbr (asm goto): inline asm with a constraint string holding
; '!' indirect-label constraints, escaped characters in the asm string,
; sideeffect and alignstack flags, an output value used only in the
; fallthrough block, several indirect destinations, and plain inline asm
; calls with multiple outputs and clobbers.

define i32 @goto(i32 %x) {
entry:
  %r = callbr i32 asm "mov $1, $0\0A\09jmp ${2:l}\0A\09jmp ${3:l}", "=r,r,!i,!i,~{dirflag},~{fpsr},~{flags}"(i32 %x)
          to label %fallthrough [label %first, label %second]

fallthrough:
  ret i32 %r

first:
  ret i32 1

second:
  ret i32 2
}

define void @nogoto() {
entry:
  callbr void asm sideeffect "jmp ${0:l}", "!i"()
          to label %out [label %out2]

out:
  ret void

out2:
  ret void
}

define { i32, i32 } @multi(i32 %a) {
entry:
  %pair = call { i32, i32 } asm "xchg $0, $1", "=r,=r,0,1,~{memory}"(i32 %a, i32 7)
  call void asm sideeffect alignstack "nop", ""()
  %q = call i32 asm "# \22quoted\22 $0", "=r"()
  %p0 = extractvalue { i32, i32 } %pair, 0
  %sum = add i32 %p0, %q
  %res = insertvalue { i32, i32 } %pair, i32 %sum, 0
  ret { i32, i32 } %res
}
