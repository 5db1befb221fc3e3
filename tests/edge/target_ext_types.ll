; Stresses: target extension types and x86_amx: target("name") with no
; parameters, with type parameters and with integer parameters; as
; function parameter/return types, alloca types, zeroinitializer globals
; (for a type LLVM knows allows it), poison values; and x86_amx produced
; and consumed by AMX intrinsics (x86_amx may not be a plain function
; parameter). Only what opt-19 and opt-22 accept on an x86-64 host.

@event = global target("spirv.DeviceEvent") zeroinitializer

declare x86_amx @llvm.x86.tileloadd64.internal(i16, i16, ptr, i64)
declare void @llvm.x86.tilestored64.internal(i16, i16, ptr, i64, x86_amx)
declare void @consume(target("spirv.Event"))

define void @locals() {
entry:
  %ev = alloca target("spirv.Event"), align 8
  %sc = alloca target("aarch64.svcount")
  %v = load target("spirv.Event"), ptr %ev, align 8
  call void @consume(target("spirv.Event") %v)
  call void @consume(target("spirv.Event") poison)
  ret void
}

define void @image(target("spirv.Image", void, 1, 1, 0, 0, 0, 0, 0) %img) {
entry:
  ret void
}

define target("my.type", i32, 3) @identity(target("my.type", i32, 3) %x) {
entry:
  ret target("my.type", i32, 3) %x
}

define target("my.params", float, <2 x i8>, { i32 }, 0, 4294967295) @many() {
entry:
  ret target("my.params", float, <2 x i8>, { i32 }, 0, 4294967295) poison
}

define void @amx(ptr %src, ptr %dst) {
entry:
  %t = call x86_amx @llvm.x86.tileloadd64.internal(i16 8, i16 8, ptr %src, i64 64)
  call void @llvm.x86.tilestored64.internal(i16 8, i16 8, ptr %dst, i64 64, x86_amx %t)
  %raw = load x86_amx, ptr %src, align 64
  ret void
}
