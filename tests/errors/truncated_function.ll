; ERROR-AT: 9:13
; Truncated file: the function's closing brace is missing. After the last
; complete instruction the parser expects another instruction or '}', and
; finds the end of the file (no final newline, so the position is just past
; the last character of the last line).
define i32 @f(i32 %a) {
entry:
  %x = add i32 %a, 1
  ret i32 %x