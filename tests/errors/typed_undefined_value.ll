; ERROR-AT: 6:23
; Typed-pointer (LLVM 14) input with an error: the load's pointer operand
; %q is undefined; the error is at %q.
define i32 @f(i32* %p) {
entry:
  %v = load i32, i32* %q, align 4
  ret i32 %v
}
