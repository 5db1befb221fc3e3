; Stresses: comments (and blank lines / odd whitespace) between almost
; every pair of tokens: inside type definitions, parameter lists, operand
; lists, switch tables, phi incoming lists, aggregate constants, attribute
; groups and metadata; comment lines containing IR-looking text, quotes
; and braces; tabs instead of spaces; a comment on the last line with no
; newline after it.
;; double semicolon ;;; triple; "unterminated quote in a comment
; define void @not_real() { ret void }

%rec = type {   ; open brace then comment
	i32,        ; tab-indented member
	; a comment line between members
	ptr         ; last member }
}               ; close

@arr = global [3 x i32] [ ; comment after open bracket
  i32 1,                  ; one
  i32 2                   ; two
  , i32 3                 ; leading comma
]

define ; comment after define
  i32  ; return type
  @f(  ; name and open paren
    i32 %a, ; first param
    i32 %b  ; second param
  )         ; close paren
  #0        ; attribute group ref
{           ; open body
entry:      ; label
  %s = add  ; opcode
       i32  ; type
       %a,  ; lhs
       %b   ; rhs
  switch i32 %s, label %d [ ; switch
    i32 0, label %z         ; case 0
    ; a comment line inside a switch table
    i32 1, label %z         ; case 1
  ]                         ; end of table

z:
  br label %d

d:
  %p = phi i32 [ %s, %entry ], ; from entry
               [ 0, %z ]       ; from z
	ret	i32	%p	; tabs between tokens
}   ; end of function

attributes #0 = { ; attribute group
  nounwind        ; one attribute
  "key"="val;ue"  ; a string attribute containing ';'
}

!0 = !{!"x"} ; trailing
; last line: no newline after this comment