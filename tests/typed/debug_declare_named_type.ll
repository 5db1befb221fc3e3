; A debug intrinsic whose ValueAsMetadata operand has a named struct pointer
; type (`metadata %struct.point* %p`), as clang 14 writes for every -g local
; of class type: the operand starts with `%`, which is the type here, not a
; value. Typed-pointer (LLVM 14) dialect.

%struct.point = type { i32, i32 }

define i32 @sum(i32 %a, i32 %b) !dbg !6 {
entry:
  %p = alloca %struct.point, align 4
  call void @llvm.dbg.declare(metadata %struct.point* %p, metadata !11, metadata !DIExpression()), !dbg !13
  %x = getelementptr inbounds %struct.point, %struct.point* %p, i32 0, i32 0
  store i32 %a, i32* %x, align 4
  %y = getelementptr inbounds %struct.point, %struct.point* %p, i32 0, i32 1
  store i32 %b, i32* %y, align 4
  %l = load i32, i32* %x, align 4
  %r = load i32, i32* %y, align 4
  %s = add i32 %l, %r
  ret i32 %s
}

declare void @llvm.dbg.declare(metadata, metadata, metadata)

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3, !4}

!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !1, producer: "hand", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug, enums: !2)
!1 = !DIFile(filename: "point.cpp", directory: "/tmp")
!2 = !{}
!3 = !{i32 7, !"Dwarf Version", i32 5}
!4 = !{i32 2, !"Debug Info Version", i32 3}
!6 = distinct !DISubprogram(name: "sum", scope: !1, file: !1, line: 1, type: !7, scopeLine: 1, spFlags: DISPFlagDefinition, unit: !0, retainedNodes: !2)
!7 = !DISubroutineType(types: !8)
!8 = !{!9, !9, !9}
!9 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!10 = !DICompositeType(tag: DW_TAG_structure_type, name: "point", file: !1, line: 1, size: 64, elements: !2)
!11 = !DILocalVariable(name: "p", scope: !6, file: !1, line: 2, type: !10)
!13 = !DILocation(line: 2, column: 9, scope: !6)
