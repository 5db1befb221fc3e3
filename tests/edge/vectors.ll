; Stresses: vector types and constants: fixed vectors of ints, floats,
; pointers and i1, scalable vectors (<vscale x 4 x i32>, <vscale x 2 x
; double>, <vscale x 16 x i1>) with zeroinitializer, poison, undef and the
; splat (...) constant syntax, vector GEPs, shufflevector with undef/poison
; mask lanes, insert/extractelement with scalable types, vector compares and
; selects, and llvm.vscale / llvm.vector.reduce intrinsic calls.

@fixed = global <4 x i32> <i32 1, i32 -2, i32 3, i32 -4>
@fp = global <2 x double> <double 1.0, double 0x7FF0000000000000>
@ptrs = global <2 x ptr> <ptr @fixed, ptr null>
@mask = global <8 x i1> <i1 true, i1 false, i1 true, i1 false, i1 1, i1 0, i1 true, i1 false>
@splatted = global <4 x i32> splat (i32 7)
@zero = global <16 x i8> zeroinitializer

declare i32 @llvm.vscale.i32()
declare i32 @llvm.vector.reduce.add.v4i32(<4 x i32>)
declare i32 @llvm.vector.reduce.add.nxv4i32(<vscale x 4 x i32>)

define <4 x i32> @fixed_ops(<4 x i32> %a, <4 x i32> %b) {
entry:
  %s = add <4 x i32> %a, <i32 1, i32 1, i32 1, i32 1>
  %m = mul nsw <4 x i32> %s, splat (i32 3)
  %c = icmp slt <4 x i32> %m, %b
  %sel = select <4 x i1> %c, <4 x i32> %m, <4 x i32> %b
  %sh = shufflevector <4 x i32> %sel, <4 x i32> poison, <8 x i32> <i32 3, i32 2, i32 poison, i32 0, i32 undef, i32 1, i32 7, i32 4>
  %lo = shufflevector <8 x i32> %sh, <8 x i32> undef, <4 x i32> <i32 0, i32 1, i32 2, i32 3>
  %e = extractelement <4 x i32> %lo, i64 2
  %ins = insertelement <4 x i32> %lo, i32 %e, i32 0
  %red = call i32 @llvm.vector.reduce.add.v4i32(<4 x i32> %ins)
  %fin = insertelement <4 x i32> %ins, i32 %red, i64 3
  ret <4 x i32> %fin
}

define <2 x ptr> @vector_gep(ptr %base, <2 x i64> %idx) {
entry:
  %v = getelementptr inbounds i32, ptr %base, <2 x i64> %idx
  %w = getelementptr i8, <2 x ptr> %v, i64 4
  %pi = ptrtoint <2 x ptr> %w to <2 x i64>
  %back = inttoptr <2 x i64> %pi to <2 x ptr>
  ret <2 x ptr> %back
}

define <vscale x 4 x i32> @scalable(<vscale x 4 x i32> %a, <vscale x 2 x double> %d, <vscale x 16 x i1> %p) {
entry:
  %z = add <vscale x 4 x i32> %a, zeroinitializer
  %one = add <vscale x 4 x i32> %z, splat (i32 1)
  %ins = insertelement <vscale x 4 x i32> poison, i32 5, i64 0
  %spl = shufflevector <vscale x 4 x i32> %ins, <vscale x 4 x i32> poison, <vscale x 4 x i32> zeroinitializer
  %sum = add <vscale x 4 x i32> %one, %spl
  %first = extractelement <vscale x 4 x i32> %sum, i32 0
  %fd = fadd <vscale x 2 x double> %d, splat (double 2.0)
  %fu = fmul <vscale x 2 x double> %fd, undef
  %cast = bitcast <vscale x 4 x i32> %sum to <vscale x 16 x i8>
  %back = bitcast <vscale x 16 x i8> %cast to <vscale x 4 x i32>
  %vs = call i32 @llvm.vscale.i32()
  %red = call i32 @llvm.vector.reduce.add.nxv4i32(<vscale x 4 x i32> %back)
  %tot = add i32 %vs, %red
  %tot2 = add i32 %tot, %first
  %r = insertelement <vscale x 4 x i32> %back, i32 %tot2, i32 1
  ret <vscale x 4 x i32> %r
}

define void @scalable_memory(ptr %p) {
entry:
  %slot = alloca <vscale x 4 x i32>, align 16
  %v = load <vscale x 4 x i32>, ptr %p, align 16
  store <vscale x 4 x i32> %v, ptr %slot, align 16
  %g = getelementptr <vscale x 4 x i32>, ptr %slot, i64 1
  store <vscale x 4 x i32> zeroinitializer, ptr %g, align 16
  ret void
}
