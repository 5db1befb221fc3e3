; coro.param usage (LLVM Coroutines doc, "llvm.coro.param"): the coroutine
;   task f(A a, A b) { if (a.foo()) return; a.bar(); co_await ...; b.bar(); }
; makes frame copies of both parameters guarded by coro.param(original,
; copy): "move-construct the copy" and "destroy the copy" only run when
; coro.param returns true. a's copy is only used before the suspend point,
; b's copy after it.
; %struct.A = { i32 }; A::A(A&&) prints 100+v, A::~A() prints 200+v,
; A::foo() is v == 0, A::bar() prints v.
; Opaque-pointer (LLVM 19) dialect.
; LLVM's coroutine passes leave llvm.coro.param calls in place (lli then
; fails on the unresolved symbol), so to run LLVM's lowering replace each
; coro.param call with `true` first. Output with every coro.param = true:
; LLVM 22 rejects this module (its llvm.coro.end returns void; LLVM 19's
; returns i1), so it is checked against LLVM 19 only.
; EXPECT-OUTPUT: 101 102 1 2 201 202

%struct.A = type { i32 }

@.fmt = private unnamed_addr constant [4 x i8] c"%d\0A\00", align 1

define ptr @f(ptr %a.orig, ptr %b.orig) presplitcoroutine {
entry:
  %a = alloca %struct.A, align 4
  %b = alloca %struct.A, align 4
  %id = call token @llvm.coro.id(i32 0, ptr null, ptr null, ptr null)
  %size = call i32 @llvm.coro.size.i32()
  %alloc = call ptr @malloc(i32 %size)
  %hdl = call noalias ptr @llvm.coro.begin(token %id, ptr %alloc)
  %copy.a = call i1 @llvm.coro.param(ptr %a.orig, ptr %a)
  br i1 %copy.a, label %move.a, label %after.move.a

move.a:
  call void @A.move(ptr %a, ptr %a.orig)
  br label %after.move.a

after.move.a:
  %copy.b = call i1 @llvm.coro.param(ptr %b.orig, ptr %b)
  br i1 %copy.b, label %move.b, label %body

move.b:
  call void @A.move(ptr %b, ptr %b.orig)
  br label %body

body:
  %early = call i1 @A.foo(ptr %a)
  br i1 %early, label %destroy.copies, label %not.early

not.early:
  call void @A.bar(ptr %a)
  %s = call i8 @llvm.coro.suspend(token none, i1 false)
  switch i8 %s, label %suspend [i8 0, label %resumed
                                i8 1, label %destroy.copies]

resumed:
  call void @A.bar(ptr %b)
  br label %destroy.copies

destroy.copies:
  %drop.a = call i1 @llvm.coro.param(ptr %a.orig, ptr %a)
  br i1 %drop.a, label %dtor.a, label %after.dtor.a

dtor.a:
  call void @A.dtor(ptr %a)
  br label %after.dtor.a

after.dtor.a:
  %drop.b = call i1 @llvm.coro.param(ptr %b.orig, ptr %b)
  br i1 %drop.b, label %dtor.b, label %final

dtor.b:
  call void @A.dtor(ptr %b)
  br label %final

final:
  %s.final = call i8 @llvm.coro.suspend(token none, i1 true)
  switch i8 %s.final, label %suspend [i8 0, label %trap
                                      i8 1, label %cleanup]

trap:
  call void @llvm.trap()
  unreachable

cleanup:
  %mem = call ptr @llvm.coro.free(token %id, ptr %hdl)
  call void @free(ptr %mem)
  br label %suspend

suspend:
  %unused = call i1 @llvm.coro.end(ptr %hdl, i1 false, token none)
  ret ptr %hdl
}

define void @A.move(ptr %this, ptr %other) {
entry:
  %src = getelementptr inbounds %struct.A, ptr %other, i32 0, i32 0
  %dst = getelementptr inbounds %struct.A, ptr %this, i32 0, i32 0
  %v = load i32, ptr %src, align 4
  store i32 %v, ptr %dst, align 4
  %shown = add i32 %v, 100
  call void @print(i32 %shown)
  ret void
}

define void @A.dtor(ptr %this) {
entry:
  %p = getelementptr inbounds %struct.A, ptr %this, i32 0, i32 0
  %v = load i32, ptr %p, align 4
  %shown = add i32 %v, 200
  call void @print(i32 %shown)
  ret void
}

define i1 @A.foo(ptr %this) {
entry:
  %p = getelementptr inbounds %struct.A, ptr %this, i32 0, i32 0
  %v = load i32, ptr %p, align 4
  %r = icmp eq i32 %v, 0
  ret i1 %r
}

define void @A.bar(ptr %this) {
entry:
  %p = getelementptr inbounds %struct.A, ptr %this, i32 0, i32 0
  %v = load i32, ptr %p, align 4
  call void @print(i32 %v)
  ret void
}

define i32 @main() {
entry:
  %a = alloca %struct.A, align 4
  %b = alloca %struct.A, align 4
  %a.f = getelementptr inbounds %struct.A, ptr %a, i32 0, i32 0
  store i32 1, ptr %a.f, align 4
  %b.f = getelementptr inbounds %struct.A, ptr %b, i32 0, i32 0
  store i32 2, ptr %b.f, align 4
  %hdl = call ptr @f(ptr %a, ptr %b)
  call void @llvm.coro.resume(ptr %hdl)
  call void @llvm.coro.destroy(ptr %hdl)
  ret i32 0
}

define void @print(i32 %v) {
entry:
  %fmt = getelementptr inbounds [4 x i8], ptr @.fmt, i64 0, i64 0
  %r = call i32 (ptr, ...) @printf(ptr %fmt, i32 %v)
  ret void
}

declare i32 @printf(ptr, ...)
declare noalias ptr @malloc(i32)
declare void @free(ptr)
declare void @llvm.trap()

declare token @llvm.coro.id(i32, ptr, ptr, ptr)
declare i32 @llvm.coro.size.i32()
declare ptr @llvm.coro.begin(token, ptr)
declare i1 @llvm.coro.param(ptr, ptr)
declare i8 @llvm.coro.suspend(token, i1)
declare ptr @llvm.coro.free(token, ptr)
declare i1 @llvm.coro.end(ptr, i1, token)
declare void @llvm.coro.resume(ptr)
declare void @llvm.coro.destroy(ptr)
