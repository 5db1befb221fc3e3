; Stresses: everything that can appear in a function header: linkage,
; visibility, DLL storage, calling conventions (named and `cc N`),
; return attributes, parameter attributes with type arguments (byval(T),
; sret(T), byref(T), inalloca(T), preallocated(T), elementtype(T)),
; align/dereferenceable/range/nofpclass/noundef/...; unnamed_addr,
; addrspace, inline function attributes including memory(...) and
; allocsize, attribute groups with string attributes, section, comdat,
; align, gc, prefix, prologue, personality and attached metadata; plus
; declarations with the same, and call sites repeating attributes.

%T = type { i64, i32 }

$cd = comdat any

declare i32 @__gxx_personality_v0(...)
declare noalias ptr @my_alloc(i64 noundef, i64 noundef) allocsize(0, 1) memory(inaccessiblemem: readwrite)
declare zeroext i8 @ext_ret(i8 signext, i16 zeroext) nounwind willreturn memory(none)
declare void @byval_like(ptr sret(%T) align 8, ptr byval(%T) align 8, ptr byref(%T))
declare void @inalloca_last(i32, ptr inalloca(%T))
declare void @preallocated(ptr preallocated(%T))

define internal fastcc noundef nonnull align 16 dereferenceable(32) ptr @internal_fast(ptr noundef nonnull returned align 16 dereferenceable(32) %p, i32 range(i32 0, 10) %r, float nofpclass(nan inf) %f, ptr nocapture readonly %q, ptr dereferenceable_or_null(8) %n, ptr noalias writeonly %w, i32 %ret.val, ptr nest %chain, i32 inreg %ir, ptr swiftself %ss, ptr swifterror %se, i64 %imm) unnamed_addr #0 {
entry:
  ret ptr %p
}

define protected dllexport coldcc void @cold() local_unnamed_addr addrspace(0) #1 section ".text.cold" comdat($cd) align 64 gc "statepoint-example" prefix i32 123 prologue i8 -112 personality ptr @__gxx_personality_v0 !my.md !0 !other.md !1 {
entry:
  ret void
}

define cc 42 i32 @numbered_cc(i32 %x) "target-features"="+sse4.2,+avx" "no-trapping-math"="true" "quoted key with spaces"="v" "novalue" {
entry:
  ret i32 %x
}

define hidden swiftcc { ptr, i64 } @swift(ptr swiftself %self) mustprogress noinline optnone uwtable(sync) vscale_range(1,16) {
entry:
  %a = call noalias ptr @my_alloc(i64 noundef 8, i64 noundef 4) #2
  %b = call zeroext i8 @ext_ret(i8 signext -1, i16 zeroext 2) #3
  %r = insertvalue { ptr, i64 } undef, ptr %a, 0
  ret { ptr, i64 } %r
}

define void @caller(ptr %p) {
entry:
  %t = alloca %T, align 8
  %u = alloca %T, align 8
  %ia = alloca inalloca %T, align 8
  call void @byval_like(ptr sret(%T) align 8 %t, ptr byval(%T) align 8 %u, ptr byref(%T) %u)
  call void @inalloca_last(i32 1, ptr inalloca(%T) %ia)
  call void asm sideeffect "movl $$0, $0", "=*m"(ptr elementtype(i32) %p)
  ret void
}

attributes #0 = { alwaysinline nounwind memory(argmem: read, inaccessiblemem: write) "frame-pointer"="none" }
attributes #1 = { cold noinline nounwind optsize }
attributes #2 = { builtin allocsize(0) }
attributes #3 = { nounwind memory(none) }

!0 = !{!"header metadata"}
!1 = distinct !{}
