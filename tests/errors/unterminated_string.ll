; ERROR-AT: 5:28
; A string with no closing quote (here a section name): the string token
; starts at its opening quote and runs to the end of the file, so the error
; is at that quote.
@g = global i32 0, section ".data.unterminated

define void @f() {
  ret void
}
