; native/accessors.ll with debug info on @count: its subprogram, a location on each instruction and
; a declare of the address-taken %total, which lives in the frame. Each continuation must get a
; subprogram of its own and declare %total in the frame (tests/retcon.rs, debug_info).

declare void @note(i32)
declare void @may_throw(i32)
declare void @bump(ptr, i32)
declare ptr @rc_alloc(i64)
declare void @rc_free(ptr)
declare i32 @__gxx_personality_v0(...)

declare { ptr, i64 } @count_proto(ptr, i32)
declare void @access_proto(ptr, i1 zeroext)

define { ptr, i64 } @count(ptr %buffer, i64 %start) !dbg !5 {
entry:
  %id = call token @llvm.coro.id.retcon(i32 8, i32 8, ptr %buffer, ptr @count_proto, ptr @rc_alloc, ptr @rc_free)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr null), !dbg !7
  %total = alloca i64, align 8, !dbg !7
  call void @llvm.dbg.declare(metadata ptr %total, metadata !8, metadata !DIExpression()), !dbg !7
  store i64 %start, ptr %total, align 8
  br label %loop, !dbg !7

loop:
  %k = phi i32 [ 0, %entry ], [ %k1, %next ], !dbg !7
  %t = load i64, ptr %total, align 8, !dbg !7
  %sent = call i32 (...) @llvm.coro.suspend.retcon.i32(i64 %t), !dbg !7
  %stop = icmp slt i32 %sent, 0, !dbg !7
  br i1 %stop, label %stopped, label %next, !dbg !7

next:
  %k1 = add i32 %k, 1, !dbg !7
  %step = mul i32 %sent, %k1, !dbg !7
  call void @bump(ptr %total, i32 %step), !dbg !7
  %more = icmp slt i32 %k1, 6, !dbg !7
  br i1 %more, label %loop, label %finished, !dbg !7

stopped:
  call void @note(i32 -1), !dbg !7
  br label %finished, !dbg !7

finished:
  %unused = call i1 @llvm.coro.end(ptr %hdl, i1 false, token none), !dbg !7
  unreachable, !dbg !7
}

define { ptr, ptr } @access_small(ptr %buffer, ptr %cell) personality ptr @__gxx_personality_v0 {
entry:
  %id = call token @llvm.coro.id.retcon.once(i32 8, i32 8, ptr %buffer, ptr @access_proto, ptr @rc_alloc, ptr @rc_free)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr null)
  %slot = alloca i32, align 4
  %old = load i32, ptr %cell, align 4
  store i32 %old, ptr %slot, align 4
  %abort = call i1 (...) @llvm.coro.suspend.retcon.i1(ptr %slot)
  br i1 %abort, label %aborted, label %commit

commit:
  %new = load i32, ptr %slot, align 4
  invoke void @may_throw(i32 %new)
          to label %store unwind label %lpad

store:
  store i32 %new, ptr %cell, align 4
  call void @note(i32 1)
  br label %end

aborted:
  call void @note(i32 0)
  br label %end

end:
  %u1 = call i1 @llvm.coro.end(ptr %hdl, i1 false, token none)
  unreachable

lpad:
  %lp = landingpad { ptr, i32 }
          cleanup
  call void @note(i32 2)
  %u2 = call i1 @llvm.coro.end(ptr %hdl, i1 true, token none)
  resume { ptr, i32 } %lp
}

define { ptr, ptr } @access_big(ptr %buffer, ptr %cell) personality ptr @__gxx_personality_v0 {
entry:
  %id = call token @llvm.coro.id.retcon.once(i32 32, i32 8, ptr %buffer, ptr @access_proto, ptr @rc_alloc, ptr @rc_free)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr null)
  %slot = alloca i32, align 4
  %old = load i32, ptr %cell, align 4
  store i32 %old, ptr %slot, align 4
  %abort = call i1 (...) @llvm.coro.suspend.retcon.i1(ptr %slot)
  br i1 %abort, label %aborted, label %commit

commit:
  %new = load i32, ptr %slot, align 4
  invoke void @may_throw(i32 %new)
          to label %store unwind label %lpad

store:
  store i32 %new, ptr %cell, align 4
  call void @note(i32 11)
  br label %end

aborted:
  call void @note(i32 10)
  br label %end

end:
  %u1 = call i1 @llvm.coro.end(ptr %hdl, i1 false, token none)
  unreachable

lpad:
  %lp = landingpad { ptr, i32 }
          cleanup
  call void @note(i32 12)
  %u2 = call i1 @llvm.coro.end(ptr %hdl, i1 true, token none)
  resume { ptr, i32 } %lp
}

declare token @llvm.coro.id.retcon(i32, i32, ptr, ptr, ptr, ptr)
declare token @llvm.coro.id.retcon.once(i32, i32, ptr, ptr, ptr, ptr)
declare ptr @llvm.coro.begin(token, ptr)
declare i32 @llvm.coro.suspend.retcon.i32(...)
declare i1 @llvm.coro.suspend.retcon.i1(...)
declare i1 @llvm.coro.end(ptr, i1, token)

declare void @llvm.dbg.declare(metadata, metadata, metadata)
!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3, !4}
!0 = distinct !DICompileUnit(language: DW_LANG_C, file: !1, producer: "hand", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "count.c", directory: "/tmp")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 7, !"Dwarf Version", i32 5}
!5 = distinct !DISubprogram(name: "count", scope: !1, file: !1, line: 1, type: !6, scopeLine: 1, spFlags: DISPFlagDefinition, unit: !0)
!6 = !DISubroutineType(types: !{})
!7 = !DILocation(line: 2, column: 3, scope: !5)
!8 = !DILocalVariable(name: "total", scope: !5, file: !1, line: 2, type: !9)
!9 = !DIBasicType(name: "long", size: 64, encoding: DW_ATE_signed)
