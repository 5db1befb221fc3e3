; ERROR-AT: 8:23
; A module that is not UTF-8 (a raw byte 0xFF in a quoted name and in a
; comment, which LLVM reads as they are): it is read, and the error is
; located with each raw byte counted as one column, at the use of %nope.
; raw: ÿþ
declare void @"fÿ"(i32)
define void @g() {
  call void @"fÿ"(i32 %nope)
  ret void
}
