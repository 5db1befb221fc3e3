; ERROR-AT: 6:15
; Columns count bytes: each tab before the offending token counts as one
; column. The error is at the use of the undefined %nope.
define i32 @f(i32 %a) {
entry:
	%b	=	add	i32	%nope,	1
	ret	i32	%b
}
