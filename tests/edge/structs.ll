; Stresses: aggregate types: named structs defined after first use,
; opaque structs (defined only as `type opaque`, used behind ptr and in
; declarations), packed structs <{ i8, i32 }> (named and literal), empty
; structs {} and <{}>, literal structs nested in arrays nested in structs,
; arrays of zero length, struct constants with zeroinitializer/undef/
; poison members, insertvalue/extractvalue with multi-level indices, and
; aggregate loads/stores/returns.

%uses.later = type { %defined.later, [2 x %packed] }
%opaque = type opaque
%packed = type <{ i8, i32 }>
%defined.later = type { i64, %opaque.holder }
%opaque.holder = type { ptr }
%empty = type {}
%nested = type { [3 x { i8, <{ i16, i8 }> }], [0 x i32] }

@p = global %packed <{ i8 1, i32 2 }>, align 1
@lit.packed = global <{ i8, i32, i8 }> <{ i8 -1, i32 -1, i8 0 }>
@e = global %empty zeroinitializer
@e2 = global <{}> zeroinitializer
@e3 = global {} {}
@n = global %nested { [3 x { i8, <{ i16, i8 }> }] [{ i8, <{ i16, i8 }> } { i8 1, <{ i16, i8 }> <{ i16 2, i8 3 }> }, { i8, <{ i16, i8 }> } zeroinitializer, { i8, <{ i16, i8 }> } undef], [0 x i32] zeroinitializer }
@later = global %uses.later { %defined.later { i64 9, %opaque.holder zeroinitializer }, [2 x %packed] [%packed <{ i8 4, i32 5 }>, %packed poison] }
@ext = external global %opaque

declare void @takes_opaque(ptr, %opaque.holder)

define %packed @pack(i8 %a, i32 %b) {
entry:
  %s0 = insertvalue %packed undef, i8 %a, 0
  %s1 = insertvalue %packed %s0, i32 %b, 1
  ret %packed %s1
}

define i8 @deep(%nested %n) {
entry:
  %x = extractvalue %nested %n, 0, 1, 1, 1
  %y = insertvalue %nested %n, i8 %x, 0, 2, 0
  %z = extractvalue %nested %y, 0, 2, 0
  ret i8 %z
}

define { i32, { float, <{ i8, i8 }> } } @literal({ i32, { float, <{ i8, i8 }> } } %v) {
entry:
  %f = extractvalue { i32, { float, <{ i8, i8 }> } } %v, 1, 0
  %g = fadd float %f, 1.0
  %w = insertvalue { i32, { float, <{ i8, i8 }> } } %v, float %g, 1, 0
  ret { i32, { float, <{ i8, i8 }> } } %w
}

define void @memory(ptr %dst) {
entry:
  %v = load %uses.later, ptr @later, align 8
  store %uses.later %v, ptr %dst, align 8
  %f = getelementptr inbounds %uses.later, ptr %dst, i64 0, i32 1, i64 1, i32 1
  store i32 0, ptr %f, align 1
  %h = getelementptr %defined.later, ptr %dst, i32 0, i32 1
  %hv = load %opaque.holder, ptr %h, align 8
  call void @takes_opaque(ptr @ext, %opaque.holder %hv)
  %ep = alloca %empty, align 1
  store %empty {}, ptr %ep, align 1
  ret void
}
