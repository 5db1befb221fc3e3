; Non-coroutine module: typed GEPs through nested named, literal and packed
; structs and arrays, function pointer types
; (stored in vtables and tables, loaded, called indirectly, functions returning
; function pointers), a vtable-style dispatch and casts between them.
; Opaque-pointer (LLVM 19) dialect.
; EXPECT-OUTPUT: 7 12 35 3 42 2 9

%vtable = type { ptr, ptr }
%object = type { ptr, [2 x { i16, i32 }], <{ i8, i64 }> }
%list = type { i32, ptr }

@.fmt = private unnamed_addr constant [4 x i8] c"%d\0A\00", align 1
@vt.add = constant %vtable { ptr @add, ptr @show }
@vt.mul = constant %vtable { ptr @mul, ptr @show }
@ops = global [2 x ptr] [ptr @add, ptr @mul]

define i32 @add(i32 %a, i32 %b) {
  %r = add i32 %a, %b
  ret i32 %r
}

define i32 @mul(i32 %a, i32 %b) {
  %r = mul i32 %a, %b
  ret i32 %r
}

define void @show(ptr %p) {
  %f = getelementptr inbounds %object, ptr %p, i64 0, i32 1, i64 1, i32 1
  %v = load i32, ptr %f, align 4
  call void @print(i32 %v)
  ret void
}

define ptr @pick(i1 %which) {
  %slot = select i1 %which, i64 1, i64 0
  %p = getelementptr [2 x ptr], ptr @ops, i64 0, i64 %slot
  %f = load ptr, ptr %p
  ret ptr %f
}

define i32 @call.virtual(ptr %o, i32 %x, i32 %y) {
  %vt.addr = getelementptr %object, ptr %o, i32 0, i32 0
  %vt = load ptr, ptr %vt.addr
  %fn.addr = getelementptr %vtable, ptr %vt, i32 0, i32 0
  %fn = load ptr, ptr %fn.addr
  %r = call i32 %fn(i32 %x, i32 %y)
  ret i32 %r
}

define i32 @main() {
entry:
  %o = alloca %object, align 8
  %vt.addr = getelementptr inbounds %object, ptr %o, i64 0, i32 0
  store ptr @vt.add, ptr %vt.addr, align 8
  %f11 = getelementptr inbounds %object, ptr %o, i64 0, i32 1, i64 1, i32 1
  store i32 3, ptr %f11, align 4
  %packed = getelementptr inbounds %object, ptr %o, i64 0, i32 2
  %packed.1 = getelementptr inbounds <{ i8, i64 }>, ptr %packed, i64 0, i32 1
  store i64 2, ptr %packed.1, align 1
  %r1 = call i32 @call.virtual(ptr %o, i32 3, i32 4)
  call void @print(i32 %r1)
  store ptr @vt.mul, ptr %vt.addr, align 8
  %r2 = call i32 @call.virtual(ptr %o, i32 3, i32 4)
  call void @print(i32 %r2)
  %mulfn = call ptr @pick(i1 true)
  %r3 = call i32 %mulfn(i32 5, i32 7)
  call void @print(i32 %r3)
  ; call the show slot through a pointer loaded from the vtable
  %vt = load ptr, ptr %vt.addr
  %show.addr = getelementptr %vtable, ptr %vt, i64 0, i32 1
  %show = load ptr, ptr %show.addr
  call void %show(ptr %o)
  ; a function pointer round-tripped through ptr and i64
  %fp.raw = bitcast ptr @add to ptr
  %fp.int = ptrtoint ptr %fp.raw to i64
  %fp.back = inttoptr i64 %fp.int to ptr
  %r4 = call i32 %fp.back(i32 40, i32 2)
  call void @print(i32 %r4)
  ; packed struct field read back through a byte offset (1 byte in)
  %byte.off = getelementptr inbounds i8, ptr %packed, i64 1
  %pv = load i64, ptr %byte.off, align 1
  %pv32 = trunc i64 %pv to i32
  call void @print(i32 %pv32)
  ; a linked list of two nodes built on the stack, walked with typed GEPs
  %n1 = alloca %list
  %n2 = alloca %list
  %n1.v = getelementptr %list, ptr %n1, i32 0, i32 0
  store i32 4, ptr %n1.v
  %n1.next = getelementptr %list, ptr %n1, i32 0, i32 1
  store ptr %n2, ptr %n1.next
  %n2.v = getelementptr %list, ptr %n2, i32 0, i32 0
  store i32 5, ptr %n2.v
  %n2.next = getelementptr %list, ptr %n2, i32 0, i32 1
  store ptr null, ptr %n2.next
  br label %walk

walk:
  %node = phi ptr [ %n1, %entry ], [ %next, %walk ]
  %acc = phi i32 [ 0, %entry ], [ %acc.next, %walk ]
  %val.addr = getelementptr %list, ptr %node, i32 0, i32 0
  %val = load i32, ptr %val.addr
  %acc.next = add i32 %acc, %val
  %next.addr = getelementptr %list, ptr %node, i32 0, i32 1
  %next = load ptr, ptr %next.addr
  %end = icmp eq ptr %next, null
  br i1 %end, label %done, label %walk

done:
  call void @print(i32 %acc.next)
  ret i32 0
}

define void @print(i32 %v) {
entry:
  %fmt = getelementptr inbounds [4 x i8], ptr @.fmt, i64 0, i64 0
  %r = call i32 (ptr, ...) @printf(ptr %fmt, i32 %v)
  ret void
}

declare i32 @printf(ptr, ...)
