; coro.param usage (LLVM Coroutines doc, "llvm.coro.param"): the coroutine
;   task f(A a, A b) { if (a.foo()) return; a.bar(); co_await ...; b.bar(); }
; makes frame copies of both parameters guarded by coro.param(original,
; copy): "move-construct the copy" and "destroy the copy" only run when
; coro.param returns true. a's copy is only used before the suspend point,
; b's copy after it.
; %struct.A = { i32 }; A::A(A&&) prints 100+v, A::~A() prints 200+v,
; A::foo() is v == 0, A::bar() prints v.
; Typed-pointer (LLVM 14) dialect.
; LLVM's coroutine passes leave llvm.coro.param calls in place (lli then
; fails on the unresolved symbol), so to run LLVM's lowering replace each
; coro.param call with `true` first. Output with every coro.param = true:
; EXPECT-OUTPUT: 101 102 1 2 201 202

%struct.A = type { i32 }

@.fmt = private unnamed_addr constant [4 x i8] c"%d\0A\00", align 1

define i8* @f(%struct.A* %a.orig, %struct.A* %b.orig) "coroutine.presplit"="0" {
entry:
  %a = alloca %struct.A, align 4
  %b = alloca %struct.A, align 4
  %id = call token @llvm.coro.id(i32 0, i8* null, i8* null, i8* null)
  %size = call i32 @llvm.coro.size.i32()
  %alloc = call i8* @malloc(i32 %size)
  %hdl = call noalias i8* @llvm.coro.begin(token %id, i8* %alloc)
  %a.orig.raw = bitcast %struct.A* %a.orig to i8*
  %a.raw = bitcast %struct.A* %a to i8*
  %b.orig.raw = bitcast %struct.A* %b.orig to i8*
  %b.raw = bitcast %struct.A* %b to i8*
  %copy.a = call i1 @llvm.coro.param(i8* %a.orig.raw, i8* %a.raw)
  br i1 %copy.a, label %move.a, label %after.move.a

move.a:
  call void @A.move(%struct.A* %a, %struct.A* %a.orig)
  br label %after.move.a

after.move.a:
  %copy.b = call i1 @llvm.coro.param(i8* %b.orig.raw, i8* %b.raw)
  br i1 %copy.b, label %move.b, label %body

move.b:
  call void @A.move(%struct.A* %b, %struct.A* %b.orig)
  br label %body

body:
  %early = call i1 @A.foo(%struct.A* %a)
  br i1 %early, label %destroy.copies, label %not.early

not.early:
  call void @A.bar(%struct.A* %a)
  %s = call i8 @llvm.coro.suspend(token none, i1 false)
  switch i8 %s, label %suspend [i8 0, label %resumed
                                i8 1, label %destroy.copies]

resumed:
  call void @A.bar(%struct.A* %b)
  br label %destroy.copies

destroy.copies:
  %drop.a = call i1 @llvm.coro.param(i8* %a.orig.raw, i8* %a.raw)
  br i1 %drop.a, label %dtor.a, label %after.dtor.a

dtor.a:
  call void @A.dtor(%struct.A* %a)
  br label %after.dtor.a

after.dtor.a:
  %drop.b = call i1 @llvm.coro.param(i8* %b.orig.raw, i8* %b.raw)
  br i1 %drop.b, label %dtor.b, label %final

dtor.b:
  call void @A.dtor(%struct.A* %b)
  br label %final

final:
  %s.final = call i8 @llvm.coro.suspend(token none, i1 true)
  switch i8 %s.final, label %suspend [i8 0, label %trap
                                      i8 1, label %cleanup]

trap:
  call void @llvm.trap()
  unreachable

cleanup:
  %mem = call i8* @llvm.coro.free(token %id, i8* %hdl)
  call void @free(i8* %mem)
  br label %suspend

suspend:
  %unused = call i1 @llvm.coro.end(i8* %hdl, i1 false)
  ret i8* %hdl
}

define void @A.move(%struct.A* %this, %struct.A* %other) {
entry:
  %src = getelementptr inbounds %struct.A, %struct.A* %other, i32 0, i32 0
  %dst = getelementptr inbounds %struct.A, %struct.A* %this, i32 0, i32 0
  %v = load i32, i32* %src, align 4
  store i32 %v, i32* %dst, align 4
  %shown = add i32 %v, 100
  call void @print(i32 %shown)
  ret void
}

define void @A.dtor(%struct.A* %this) {
entry:
  %p = getelementptr inbounds %struct.A, %struct.A* %this, i32 0, i32 0
  %v = load i32, i32* %p, align 4
  %shown = add i32 %v, 200
  call void @print(i32 %shown)
  ret void
}

define i1 @A.foo(%struct.A* %this) {
entry:
  %p = getelementptr inbounds %struct.A, %struct.A* %this, i32 0, i32 0
  %v = load i32, i32* %p, align 4
  %r = icmp eq i32 %v, 0
  ret i1 %r
}

define void @A.bar(%struct.A* %this) {
entry:
  %p = getelementptr inbounds %struct.A, %struct.A* %this, i32 0, i32 0
  %v = load i32, i32* %p, align 4
  call void @print(i32 %v)
  ret void
}

define i32 @main() {
entry:
  %a = alloca %struct.A, align 4
  %b = alloca %struct.A, align 4
  %a.f = getelementptr inbounds %struct.A, %struct.A* %a, i32 0, i32 0
  store i32 1, i32* %a.f, align 4
  %b.f = getelementptr inbounds %struct.A, %struct.A* %b, i32 0, i32 0
  store i32 2, i32* %b.f, align 4
  %hdl = call i8* @f(%struct.A* %a, %struct.A* %b)
  call void @llvm.coro.resume(i8* %hdl)
  call void @llvm.coro.destroy(i8* %hdl)
  ret i32 0
}

define void @print(i32 %v) {
entry:
  %fmt = getelementptr inbounds [4 x i8], [4 x i8]* @.fmt, i64 0, i64 0
  %r = call i32 (i8*, ...) @printf(i8* %fmt, i32 %v)
  ret void
}

declare i32 @printf(i8*, ...)
declare noalias i8* @malloc(i32)
declare void @free(i8*)
declare void @llvm.trap()

declare token @llvm.coro.id(i32, i8*, i8*, i8*)
declare i32 @llvm.coro.size.i32()
declare i8* @llvm.coro.begin(token, i8*)
declare i1 @llvm.coro.param(i8*, i8*)
declare i8 @llvm.coro.suspend(token, i1)
declare i8* @llvm.coro.free(token, i8*)
declare i1 @llvm.coro.end(i8*, i1)
declare void @llvm.coro.resume(i8*)
declare void @llvm.coro.destroy(i8*)
