; Stresses: metadata syntax that trips naive tokenizers: metadata strings
; holding braces, ';', '!', '"' (as \22) and backslashes (\5C), an empty
; string, named metadata with dotted, dashed and \5C-escaped names,
; distinct and self-referencing nodes, nodes spanning several lines, null
; operands, value-as-metadata operands, and custom metadata kinds attached
; to instructions, globals and functions. Nothing here is debug info.

@g = global i32 0, !my.global.kind !3

define i32 @f(i32 %x) !my.fn.kind !4 {
entry:
  %a = add i32 %x, 1, !my.kind !0
  %b = load i32, ptr @g, align 4, !range !5, !noundef !{}
  %c = add i32 %a, %b, !my.kind !1, !other.kind !2
  br label %exit, !llvm.loop !6

exit:
  ret i32 %c, !my.kind !{!"inline } { node ; x"}
}

!named.list = !{!0, !1, !2, !3}
!llvm.ident = !{!8}
!my\5Cescaped.name = !{!1}
!my.meta-with.odd_chars = !{!7}

!0 = !{!"a } ; b {"}
!1 = !{!"!{!\22not a node\22}", !"back\5Cslash", !""}
!2 = distinct !{!2, null, !"self; reference"}
!3 = !{i32 1, i64 -1, ptr @g, float 1.5}
!4 = !{
  !"multi-line",   ; a comment inside a node
  !{!"nested {", !"}"},
  i1 true
}
!5 = !{i32 0, i32 10}
!6 = distinct !{!6, !7}
!7 = !{!"llvm.loop.mustprogress"}
!8 = !{!"clang version 0.0 (\22quoted\22) ; not a comment"}
