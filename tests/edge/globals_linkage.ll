; Stresses: module-level entities other than plain functions: comdats of
; every selection kind, globals in comdats (implicit and explicit name),
; sections and partitions, every linkage keyword, visibility, DLL storage,
; thread_local modes, unnamed_addr/local_unnamed_addr, addrspace, alignment,
; externally_initialized, code_model, dso_local/dso_preemptable, aliases
; (of globals, of GEP constant expressions, with linkage/visibility),
; ifuncs with resolvers, module asm, source_filename, datalayout and triple.

source_filename = "edge/globals \22linkage\22.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

module asm "  .globl asm_symbol"
module asm "asm_symbol = 42"

$any = comdat any
$exact = comdat exactmatch
$largest = comdat largest
$nodup = comdat nodeduplicate
$samesize = comdat samesize
$with.func = comdat any

@any = global i32 1, comdat
@exact.var = global i32 2, comdat($exact)
@largest = linkonce_odr global [4 x i8] zeroinitializer, comdat, align 4
@nodup = weak global i64 0, comdat
@samesize = global i16 0, comdat
@sect = global i32 3, section ".data.special", align 4
@part = global i32 4, partition "part1"
@sect.part = global i32 5, section "__DATA,__custom", partition "p2", align 8
@priv = private global i32 0
@intern = internal constant i32 0
@avail = available_externally global i32 0
@lo = linkonce global i32 0
@wk = weak global i32 0
@common = common global i32 0, align 4
@app = appending global [1 x ptr] [ptr @any]
@ewk = extern_weak global i32
@lodr = linkonce_odr global i32 0
@wodr = weak_odr global i32 0
@ext = external global i32
@hidden = hidden global i32 0
@protected = protected global i32 0
@dllimp = external dllimport global i32
@dllexp = dllexport global i32 0
@tls = thread_local global i32 0
@tls.gd = thread_local(localdynamic) global i32 0
@tls.ie = thread_local(initialexec) global i32 0
@tls.le = internal thread_local(localexec) global i32 0
@unnamed = private unnamed_addr constant [2 x i8] c"x\00"
@local.unnamed = local_unnamed_addr global i32 0
@as1 = addrspace(1) global i32 0, align 16
@ext.init = externally_initialized global i32 0
@cm = global i32 0, code_model "large"
@dsol = dso_local global i32 0
@dsop = dso_preemptable global i32 0
@everything = internal thread_local(initialexec) unnamed_addr addrspace(3) externally_initialized global i32 7, section ".tbss.x", align 4

@alias.plain = alias i32, ptr @any
@alias.gep = alias i8, getelementptr (i8, ptr @largest, i64 2)
@alias.hidden = hidden alias i32, ptr @sect
@alias.weak = weak_odr dllexport alias i32, ptr @any
@alias.internal = internal unnamed_addr alias i32, ptr @intern
@alias.of.alias = alias i32, ptr @alias.plain
@alias.tls = thread_local alias i32, ptr @tls
@alias.fn = alias void (), ptr @in.comdat

@ifunc = ifunc i32 (i32), ptr @resolver
@ifunc.local = internal ifunc void (), ptr @resolver.void

define internal ptr @resolver() {
entry:
  ret ptr @impl
}

define internal ptr @resolver.void() {
entry:
  ret ptr @in.comdat
}

define i32 @impl(i32 %x) {
entry:
  %r = call i32 @ifunc(i32 %x)
  ret i32 %r
}

define void @in.comdat() section ".text.hot" partition "part1" comdat($with.func) align 32 {
entry:
  ret void
}

define linkonce_odr hidden void @largest.fn() comdat($largest) {
entry:
  ret void
}
