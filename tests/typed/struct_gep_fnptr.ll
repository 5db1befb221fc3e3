; Non-coroutine module: typed GEPs through nested named, literal and packed
; structs and arrays, function pointer types
; (`void (i8*)*`, `i32 (i32, i32)*`, pointers to them, functions returning
; function pointers), a vtable-style dispatch and casts between them.
; Typed-pointer (LLVM 14) dialect.
; EXPECT-OUTPUT: 7 12 35 3 42 2 9

%vtable = type { i32 (i32, i32)*, void (i8*)* }
%object = type { %vtable*, [2 x { i16, i32 }], <{ i8, i64 }> }
%list = type { i32, %list* }

@.fmt = private unnamed_addr constant [4 x i8] c"%d\0A\00", align 1
@vt.add = constant %vtable { i32 (i32, i32)* @add, void (i8*)* @show }
@vt.mul = constant %vtable { i32 (i32, i32)* @mul, void (i8*)* @show }
@ops = global [2 x i32 (i32, i32)*] [i32 (i32, i32)* @add, i32 (i32, i32)* @mul]

define i32 @add(i32 %a, i32 %b) {
  %r = add i32 %a, %b
  ret i32 %r
}

define i32 @mul(i32 %a, i32 %b) {
  %r = mul i32 %a, %b
  ret i32 %r
}

define void @show(i8* %p) {
  %o = bitcast i8* %p to %object*
  %f = getelementptr inbounds %object, %object* %o, i64 0, i32 1, i64 1, i32 1
  %v = load i32, i32* %f, align 4
  call void @print(i32 %v)
  ret void
}

define i32 (i32, i32)* @pick(i1 %which) {
  %slot = select i1 %which, i64 1, i64 0
  %p = getelementptr [2 x i32 (i32, i32)*], [2 x i32 (i32, i32)*]* @ops, i64 0, i64 %slot
  %f = load i32 (i32, i32)*, i32 (i32, i32)** %p
  ret i32 (i32, i32)* %f
}

define i32 @call.virtual(%object* %o, i32 %x, i32 %y) {
  %vt.addr = getelementptr %object, %object* %o, i32 0, i32 0
  %vt = load %vtable*, %vtable** %vt.addr
  %fn.addr = getelementptr %vtable, %vtable* %vt, i32 0, i32 0
  %fn = load i32 (i32, i32)*, i32 (i32, i32)** %fn.addr
  %r = call i32 %fn(i32 %x, i32 %y)
  ret i32 %r
}

define i32 @main() {
entry:
  %o = alloca %object, align 8
  %vt.addr = getelementptr inbounds %object, %object* %o, i64 0, i32 0
  store %vtable* @vt.add, %vtable** %vt.addr, align 8
  %f11 = getelementptr inbounds %object, %object* %o, i64 0, i32 1, i64 1, i32 1
  store i32 3, i32* %f11, align 4
  %packed = getelementptr inbounds %object, %object* %o, i64 0, i32 2
  %packed.1 = getelementptr inbounds <{ i8, i64 }>, <{ i8, i64 }>* %packed, i64 0, i32 1
  store i64 2, i64* %packed.1, align 1
  %r1 = call i32 @call.virtual(%object* %o, i32 3, i32 4)
  call void @print(i32 %r1)
  store %vtable* @vt.mul, %vtable** %vt.addr, align 8
  %r2 = call i32 @call.virtual(%object* %o, i32 3, i32 4)
  call void @print(i32 %r2)
  %mulfn = call i32 (i32, i32)* @pick(i1 true)
  %r3 = call i32 %mulfn(i32 5, i32 7)
  call void @print(i32 %r3)
  ; call the show slot through a `void (i8*)*` loaded from the vtable
  %vt = load %vtable*, %vtable** %vt.addr
  %show.addr = getelementptr %vtable, %vtable* %vt, i64 0, i32 1
  %show = load void (i8*)*, void (i8*)** %show.addr
  %raw = bitcast %object* %o to i8*
  call void %show(i8* %raw)
  ; a function pointer round-tripped through i8* and i64
  %fp.raw = bitcast i32 (i32, i32)* @add to i8*
  %fp.int = ptrtoint i8* %fp.raw to i64
  %fp.back = inttoptr i64 %fp.int to i32 (i32, i32)*
  %r4 = call i32 %fp.back(i32 40, i32 2)
  call void @print(i32 %r4)
  ; packed struct field read back through an i8* offset (1 byte in)
  %byte.base = bitcast <{ i8, i64 }>* %packed to i8*
  %byte.off = getelementptr inbounds i8, i8* %byte.base, i64 1
  %as.i64 = bitcast i8* %byte.off to i64*
  %pv = load i64, i64* %as.i64, align 1
  %pv32 = trunc i64 %pv to i32
  call void @print(i32 %pv32)
  ; a linked list of two nodes built on the stack, walked with typed GEPs
  %n1 = alloca %list
  %n2 = alloca %list
  %n1.v = getelementptr %list, %list* %n1, i32 0, i32 0
  store i32 4, i32* %n1.v
  %n1.next = getelementptr %list, %list* %n1, i32 0, i32 1
  store %list* %n2, %list** %n1.next
  %n2.v = getelementptr %list, %list* %n2, i32 0, i32 0
  store i32 5, i32* %n2.v
  %n2.next = getelementptr %list, %list* %n2, i32 0, i32 1
  store %list* null, %list** %n2.next
  br label %walk

walk:
  %node = phi %list* [ %n1, %entry ], [ %next, %walk ]
  %acc = phi i32 [ 0, %entry ], [ %acc.next, %walk ]
  %val.addr = getelementptr %list, %list* %node, i32 0, i32 0
  %val = load i32, i32* %val.addr
  %acc.next = add i32 %acc, %val
  %next.addr = getelementptr %list, %list* %node, i32 0, i32 1
  %next = load %list*, %list** %next.addr
  %end = icmp eq %list* %next, null
  br i1 %end, label %done, label %walk

done:
  call void @print(i32 %acc.next)
  ret i32 0
}

define void @print(i32 %v) {
entry:
  %fmt = getelementptr inbounds [4 x i8], [4 x i8]* @.fmt, i64 0, i64 0
  %r = call i32 (i8*, ...) @printf(i8* %fmt, i32 %v)
  ret void
}

declare i32 @printf(i8*, ...)
