; ERROR-AT: 6:21
; An unknown character at the end of an instruction: the lexer cannot
; form a token from '`', so the error is at the backtick.
define i32 @f() {
entry:
  %x = add i32 1, 2 `
  ret i32 %x
}
