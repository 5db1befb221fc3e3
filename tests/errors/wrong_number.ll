; ERROR-AT: 7:3
; Numbered values must be defined in increasing order (LLVM 14 requires
; exactly the next number; LLVM 19 and later allow gaps but not going
; back): after %2, defining %1 is an error at %1.
define i32 @f(i32 %0) {
  %2 = add i32 %0, 1
  %1 = add i32 %2, 1
  ret i32 %1
}
