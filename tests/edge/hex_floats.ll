; Stresses: floating-point literals of every kind: decimal (with exponent,
; negative, no fraction digits), the plain 0x form for double/float (float
; literals are written as the double bit pattern), 0xH (half), 0xR
; (bfloat), 0xK (x86_fp80), 0xL (fp128), 0xM (ppc_fp128) (the kind letter
; must be upper case; the hex digits may be lower case), infinities, NaNs
; and negative zero as hex, and FP constants inside vectors, arrays and
; structs.

@h = global half 0xH3C00
@h.neg = global half 0xHBC00
@h.inf = global half 0xH7C00
@bf = global bfloat 0xR3F80
@bf.nan = global bfloat 0xR7FC0
@f.dec = global float 1.500000e+00
@f.hex = global float 0x3FF8000000000000
@f.neg0 = global float -0.000000e+00
@d.one = global double 0x3FF0000000000000
@d.lower = global double 0x3ff0000000000001
@d.inf = global double 0x7FF0000000000000
@d.nan = global double 0x7FF8000000000000
@d.dec = global double 6.250000e-02
@d.exp = global double 1.0e+300
@d.small = global double -2.5e-5
@d.int = global double 4.0
@x87 = global x86_fp80 0xK3FFF8000000000000000
@x87.neg = global x86_fp80 0xKBFFF8000000000000000
@q = global fp128 0xL00000000000000003FFF000000000000
@q.two = global fp128 0xL00000000000000004000000000000000
@ppc = global ppc_fp128 0xM3FF00000000000000000000000000000
@vec = global <4 x float> <float 1.000000e+00, float 0x3FE0000000000000, float -0.0, float 0x7FF0000000000000>
@arr = global [2 x half] [half 0xH0000, half 0xH3800]
@mix = global { bfloat, double, x86_fp80 } { bfloat 0xR4000, double 3.0, x86_fp80 0xK40008000000000000000 }

define double @use(double %x) {
entry:
  %a = fadd double %x, 0x3FF0000000000000
  %b = fmul double %a, 2.000000e+00
  %c = fsub double %b, -1.0
  %h = fptrunc double %c to half
  %h2 = fadd half %h, 0xH3C00
  %bf = fptrunc double %c to bfloat
  %bf2 = fadd bfloat %bf, 0xR3F80
  %e = fpext half %h2 to x86_fp80
  %e2 = fadd x86_fp80 %e, 0xK3FFF8000000000000000
  %q = fpext double %c to fp128
  %q2 = fadd fp128 %q, 0xL00000000000000003FFF000000000000
  %p = fpext double %c to ppc_fp128
  %p2 = fadd ppc_fp128 %p, 0xM3FF00000000000000000000000000000
  %cmp = fcmp olt double %c, 0x7FF0000000000000
  %r = select i1 %cmp, double %c, double 0.0
  ret double %r
}
