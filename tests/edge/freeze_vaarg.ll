; Stresses: freeze (of ints, pointers, vectors, aggregates, poison and
; undef constants) and variadic functions: a variadic definition using
; llvm.va_start/va_copy/va_end and the va_arg instruction with several
; result types, calls with an explicit variadic function type, and a
; variadic function taking no fixed parameters.

%struct.va_list = type { i32, i32, ptr, ptr }

declare void @llvm.va_start.p0(ptr)
declare void @llvm.va_copy.p0(ptr, ptr)
declare void @llvm.va_end.p0(ptr)

define i32 @sum(i32 %n, ...) {
entry:
  %ap = alloca %struct.va_list, align 8
  %ap2 = alloca %struct.va_list, align 8
  call void @llvm.va_start.p0(ptr %ap)
  call void @llvm.va_copy.p0(ptr %ap2, ptr %ap)
  %a = va_arg ptr %ap, i32
  %b = va_arg ptr %ap, i64
  %c = va_arg ptr %ap, double
  %d = va_arg ptr %ap2, ptr
  call void @llvm.va_end.p0(ptr %ap2)
  call void @llvm.va_end.p0(ptr %ap)
  %b32 = trunc i64 %b to i32
  %c32 = fptosi double %c to i32
  %s = add i32 %a, %b32
  %s2 = add i32 %s, %c32
  ret i32 %s2
}

define void @only_varargs(...) {
entry:
  ret void
}

define i32 @caller(ptr %p) {
entry:
  %r = call i32 (i32, ...) @sum(i32 3, i32 1, i64 2, double 3.0, ptr %p)
  call void (...) @only_varargs()
  call void (...) @only_varargs(i8 1, <2 x i32> zeroinitializer, { i32, float } { i32 1, float 2.0 })
  %fp = load ptr, ptr %p, align 8
  %r2 = call i32 (i32, ...) %fp(i32 0)
  %t = add i32 %r, %r2
  ret i32 %t
}

define i32 @freezes(i32 %x, ptr %p, <4 x float> %v, { i8, ptr } %agg) {
entry:
  %a = freeze i32 %x
  %b = freeze i32 poison
  %c = freeze i32 undef
  %d = freeze ptr %p
  %e = freeze <4 x float> %v
  %f = freeze <4 x float> <float poison, float 1.0, float undef, float 0.0>
  %g = freeze { i8, ptr } %agg
  %h = freeze [2 x i16] zeroinitializer
  %s = add i32 %a, %b
  %s2 = add i32 %s, %c
  ret i32 %s2
}
