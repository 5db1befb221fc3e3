; Stresses: atomic memory operations: cmpxchg (plain, weak, volatile, with
; syncscope("singlethread") and a custom quoted scope, every legal
; success/failure ordering pair shape, align), atomicrmw with each
; operation LLVM 19 knows (xchg add sub and nand or xor max min umax umin
; fadd fsub fmax fmin uinc_wrap udec_wrap) including FP, <2 x half> and pointer
; operands, atomic and volatile loads/stores with syncscope, and fences
; of every ordering.

define void @cmpxchg(ptr %p, i32 %old, i32 %new, ptr %pp) {
entry:
  %a = cmpxchg ptr %p, i32 %old, i32 %new seq_cst seq_cst
  %b = cmpxchg weak ptr %p, i32 %old, i32 %new acq_rel acquire
  %c = cmpxchg volatile ptr %p, i32 %old, i32 %new release monotonic, align 4
  %d = cmpxchg weak volatile ptr %p, i32 %old, i32 %new syncscope("singlethread") acquire monotonic, align 8
  %e = cmpxchg ptr %pp, ptr null, ptr %p syncscope("agent one") monotonic monotonic
  %v = extractvalue { i32, i1 } %d, 0
  %ok = extractvalue { i32, i1 } %d, 1
  %i128 = cmpxchg ptr %p, i128 0, i128 -1 seq_cst acquire, align 16
  ret void
}

define void @rmw(ptr %p, ptr %fp, ptr %pp) {
entry:
  %0 = atomicrmw xchg ptr %p, i32 1 seq_cst
  %1 = atomicrmw add ptr %p, i32 1 acq_rel
  %2 = atomicrmw sub ptr %p, i32 1 release
  %3 = atomicrmw and ptr %p, i32 1 acquire
  %4 = atomicrmw nand ptr %p, i32 1 monotonic
  %5 = atomicrmw or ptr %p, i32 1 seq_cst, align 4
  %6 = atomicrmw xor ptr %p, i32 1 seq_cst
  %7 = atomicrmw max ptr %p, i32 -1 seq_cst
  %8 = atomicrmw min ptr %p, i32 -1 seq_cst
  %9 = atomicrmw umax ptr %p, i32 -1 seq_cst
  %10 = atomicrmw umin ptr %p, i32 -1 seq_cst
  %11 = atomicrmw fadd ptr %fp, float 1.0 seq_cst
  %12 = atomicrmw fsub ptr %fp, double 1.0 seq_cst
  %13 = atomicrmw fmax ptr %fp, half 0xH3C00 seq_cst
  %14 = atomicrmw fmin ptr %fp, bfloat 0xR3F80 seq_cst
  %15 = atomicrmw uinc_wrap ptr %p, i32 10 seq_cst
  %16 = atomicrmw udec_wrap ptr %p, i64 10 seq_cst
  %17 = atomicrmw volatile xchg ptr %pp, ptr null syncscope("singlethread") monotonic, align 8
  %18 = atomicrmw xchg ptr %fp, float 2.0 acquire
  %19 = atomicrmw volatile add ptr %p, i8 1 syncscope("wavefront") seq_cst, align 1
  %20 = atomicrmw fadd ptr %fp, <2 x half> <half 0xH3C00, half 0xH3C00> seq_cst
  ret void
}

define i32 @loads_stores(ptr %p) {
entry:
  %a = load atomic i32, ptr %p unordered, align 4
  %b = load atomic volatile i32, ptr %p syncscope("singlethread") acquire, align 4
  %c = load atomic ptr, ptr %p seq_cst, align 8
  %d = load atomic float, ptr %p monotonic, align 4
  store atomic i32 %a, ptr %p release, align 4
  store atomic volatile i32 %b, ptr %p syncscope("singlethread") seq_cst, align 4
  store atomic ptr %c, ptr %p unordered, align 8
  %s = add i32 %a, %b
  ret i32 %s
}

define void @fences() {
entry:
  fence acquire
  fence release
  fence acq_rel
  fence seq_cst
  fence syncscope("singlethread") seq_cst
  fence syncscope("") acquire
  ret void
}
