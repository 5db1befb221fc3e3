; Stresses: the old (pre-records) debug-info form: calls to
; llvm.dbg.value / llvm.dbg.declare / llvm.dbg.assign with metadata
; operands `metadata i32 %x`, `metadata !DIExpression()`, `metadata !{}`,
; `metadata i32 poison`, `metadata !DIArgList(...)` and !dbg attachments
; on the calls. LLVM 19 and later read this and convert it to records; a
; module must not mix this form with #dbg_ records.

declare void @llvm.dbg.value(metadata, metadata, metadata)
declare void @llvm.dbg.declare(metadata, metadata, metadata)
declare void @llvm.dbg.assign(metadata, metadata, metadata, metadata, metadata, metadata)

define i32 @f(i32 %x, i32 %y) !dbg !5 {
entry:
  %slot = alloca i32, align 4, !DIAssignID !20
  call void @llvm.dbg.assign(metadata i1 undef, metadata !11, metadata !DIExpression(), metadata !20, metadata ptr %slot, metadata !DIExpression()), !dbg !13
  call void @llvm.dbg.declare(metadata ptr %slot, metadata !12, metadata !DIExpression()), !dbg !13
  call void @llvm.dbg.value(metadata i32 %x, metadata !11, metadata !DIExpression()), !dbg !13
  %sum = add i32 %x, %y, !dbg !14
  call void @llvm.dbg.value(metadata !DIArgList(i32 %x, i32 %y), metadata !11, metadata !DIExpression(DW_OP_LLVM_arg, 0, DW_OP_LLVM_arg, 1, DW_OP_plus, DW_OP_stack_value)), !dbg !14
  store i32 %sum, ptr %slot, align 4, !dbg !14
  call void @llvm.dbg.value(metadata i32 poison, metadata !11, metadata !DIExpression()), !dbg !15
  call void @llvm.dbg.value(metadata !{}, metadata !12, metadata !DIExpression()), !dbg !15
  ret i32 %sum, !dbg !15
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3}

!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "edge", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "edge.c", directory: "/tmp")
!2 = !{i32 7, !"Dwarf Version", i32 4}
!3 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 1, type: !6, scopeLine: 1, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!6 = !DISubroutineType(types: !7)
!7 = !{!8, !8, !8}
!8 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!11 = !DILocalVariable(name: "x", arg: 1, scope: !5, file: !1, line: 1, type: !8)
!12 = !DILocalVariable(name: "slot", scope: !5, file: !1, line: 2, type: !8)
!13 = !DILocation(line: 1, column: 12, scope: !5)
!14 = !DILocation(line: 2, column: 3, scope: !5)
!15 = !DILocation(line: 3, column: 1, scope: !5)
!20 = distinct !DIAssignID()
