; Stresses: debug records in the LLVM 19 textual format: #dbg_value,
; #dbg_declare and #dbg_assign records (with DIExpression operands,
; DIArgList, poison/empty locations and !DIAssignID), interleaved with
; instructions and at the top of blocks, plus the DI* metadata they refer
; to (specialized nodes with named fields, DIFlags, enum-like values and
; string fields holding quotes). Debug intrinsic calls must not be mixed
; with records in one module; see debug_intrinsics.ll for the old form.

define i32 @f(i32 %x, i32 %y) !dbg !5 {
entry:
  %slot = alloca i32, align 4, !DIAssignID !20
    #dbg_assign(i1 poison, !11, !DIExpression(), !20, ptr %slot, !DIExpression(), !13)
    #dbg_declare(ptr %slot, !12, !DIExpression(DW_OP_plus_uconst, 0), !13)
    #dbg_value(i32 %x, !11, !DIExpression(), !13)
  %sum = add i32 %x, %y, !dbg !14
    #dbg_value(i32 %sum, !11, !DIExpression(DW_OP_LLVM_fragment, 0, 16), !14)
    #dbg_value(!DIArgList(i32 %x, i32 %y), !11, !DIExpression(DW_OP_LLVM_arg, 0, DW_OP_LLVM_arg, 1, DW_OP_plus, DW_OP_stack_value), !14)
  store i32 %sum, ptr %slot, align 4, !dbg !14, !DIAssignID !21
    #dbg_assign(i32 %sum, !11, !DIExpression(), !21, ptr %slot, !DIExpression(), !14)
  br label %exit, !dbg !14

exit:
    #dbg_value(i32 poison, !11, !DIExpression(), !15)
    #dbg_value(!{}, !12, !DIExpression(), !15)
  ret i32 %sum, !dbg !15
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3}
!llvm.ident = !{!4}

!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, producer: "hand \22written\22", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug, splitDebugInlining: false, nameTableKind: None)
!1 = !DIFile(filename: "edge.c", directory: "/tmp/some dir")
!2 = !{i32 7, !"Dwarf Version", i32 5}
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{!"edge"}
!5 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 1, type: !6, scopeLine: 1, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition, unit: !0, retainedNodes: !9)
!6 = !DISubroutineType(types: !7)
!7 = !{!8, !8, !8}
!8 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!9 = !{!11, !12}
!11 = !DILocalVariable(name: "x", arg: 1, scope: !5, file: !1, line: 1, type: !8)
!12 = !DILocalVariable(name: "slot", scope: !5, file: !1, line: 2, type: !8)
!13 = !DILocation(line: 1, column: 12, scope: !5)
!14 = !DILocation(line: 2, column: 3, scope: !5)
!15 = !DILocation(line: 3, column: 1, scope: !5)
!20 = distinct !DIAssignID()
!21 = distinct !DIAssignID()
