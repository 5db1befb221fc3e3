; Stresses: optional instruction keywords and flags as of LLVM 19: nuw/nsw
; on add/sub/mul/shl/trunc, exact on udiv/sdiv/lshr/ashr, disjoint on or,
; nneg on zext and uitofp, nuw/nsw on trunc, every fast-math flag alone and
; combined (fast), fast-math flags on fneg/fcmp/select/phi/call, inbounds and
; nusw/nuw on getelementptr, every icmp and fcmp predicate, and
; metadata-bearing load/store keywords (volatile, !nontemporal, !invariant.load).

define void @int_flags(i32 %a, i32 %b, i64 %w) {
entry:
  %0 = add nuw i32 %a, %b
  %1 = add nsw i32 %a, %b
  %2 = add nuw nsw i32 %a, %b
  %3 = sub nsw nuw i32 %a, %b
  %4 = mul nuw nsw i32 %a, %b
  %5 = shl nuw nsw i32 %a, 3
  %6 = udiv exact i32 %a, %b
  %7 = sdiv exact i32 %a, %b
  %8 = lshr exact i32 %a, 1
  %9 = ashr exact i32 %a, 1
  %10 = or disjoint i32 %a, %b
  %11 = zext nneg i32 %a to i64
  %12 = trunc nuw i64 %w to i32
  %13 = trunc nsw i64 %w to i32
  %14 = trunc nuw nsw i64 %w to i32
  %15 = urem i32 %a, %b
  %16 = srem i32 %a, %b
  %17 = and i32 %a, %b
  %18 = xor i32 %a, -1
  %19 = uitofp nneg i32 %a to float
  ret void
}

define float @fp_flags(float %x, float %y, i1 %c) {
entry:
  %0 = fadd nnan float %x, %y
  %1 = fsub ninf float %x, %y
  %2 = fmul nsz float %x, %y
  %3 = fdiv arcp float %x, %y
  %4 = frem contract float %x, %y
  %5 = fadd afn float %x, %y
  %6 = fadd reassoc float %x, %y
  %7 = fadd fast float %x, %y
  %8 = fadd nnan ninf nsz arcp contract afn reassoc float %x, %y
  %9 = fneg nnan float %x
  %10 = fcmp fast olt float %x, %y
  %11 = select nnan i1 %c, float %x, float %y
  %12 = call fast float @llvm.fabs.f32(float %x)
  br label %next

next:
  %13 = phi nsz float [ %11, %entry ]
  ret float %13
}

define void @geps(ptr %p, i64 %i) {
entry:
  %0 = getelementptr inbounds i32, ptr %p, i64 %i
  %1 = getelementptr nusw i32, ptr %p, i64 %i
  %2 = getelementptr nuw i32, ptr %p, i64 %i
  %3 = getelementptr inbounds nuw i32, ptr %p, i64 %i
  %4 = getelementptr nusw nuw i32, ptr %p, i64 %i
  %5 = getelementptr {}, ptr %p, i64 %i
  ret void
}

define void @predicates(i32 %a, i32 %b, float %x, float %y, ptr %p) {
entry:
  %i0 = icmp eq i32 %a, %b
  %i1 = icmp ne i32 %a, %b
  %i2 = icmp ugt i32 %a, %b
  %i3 = icmp uge i32 %a, %b
  %i4 = icmp ult i32 %a, %b
  %i5 = icmp ule i32 %a, %b
  %i6 = icmp sgt i32 %a, %b
  %i7 = icmp sge i32 %a, %b
  %i8 = icmp slt i32 %a, %b
  %i9 = icmp sle i32 %a, %b
  %ip = icmp eq ptr %p, null
  %f0 = fcmp false float %x, %y
  %f1 = fcmp oeq float %x, %y
  %f2 = fcmp ogt float %x, %y
  %f3 = fcmp oge float %x, %y
  %f4 = fcmp olt float %x, %y
  %f5 = fcmp ole float %x, %y
  %f6 = fcmp one float %x, %y
  %f7 = fcmp ord float %x, %y
  %f8 = fcmp ueq float %x, %y
  %f9 = fcmp ugt float %x, %y
  %f10 = fcmp uge float %x, %y
  %f11 = fcmp ult float %x, %y
  %f12 = fcmp ule float %x, %y
  %f13 = fcmp une float %x, %y
  %f14 = fcmp uno float %x, %y
  %f15 = fcmp true float %x, %y
  ret void
}

define i32 @memory_keywords(ptr %p) {
entry:
  %a = load volatile i32, ptr %p, align 4
  %b = load i32, ptr %p, align 4, !nontemporal !0
  %c = load i32, ptr %p, align 4, !invariant.load !1
  store volatile i32 %a, ptr %p, align 4
  store i32 %b, ptr %p, align 4, !nontemporal !0
  %s = alloca i32, i32 4, align 16, addrspace(5)
  %t = alloca inalloca i32, align 4
  %len = load i64, ptr %p, align 8
  %u = alloca i8, i64 %len, align 1
  %s2 = add i32 %a, %c
  ret i32 %s2
}

declare float @llvm.fabs.f32(float)

!0 = !{i32 1}
!1 = !{}
