; Stresses: CRLF line endings. Every line of this file, including comments,
; blank lines, a multi-line switch and metadata, ends in \r\n. Column
; numbers must not count the \r; a string constant contains an escaped
; \0D\0A pair, which is not a line break.

@msg = private constant [4 x i8] c"a\0D\0A\00"

define i32 @crlf(i32 %x) {
entry:
  %a = add i32 %x, 1
  switch i32 %a, label %other [
    i32 1, label %one
    i32 2, label %one
  ]

one:
  ret i32 1

other:
  %m = load i8, ptr @msg
  %z = zext i8 %m to i32
  ret i32 %z ; trailing comment
}

!0 = !{!"node\0D"}
