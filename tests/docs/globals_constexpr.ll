; Non-coroutine module: typed-pointer globals and constant expressions.
; Stresses global arrays (of ints, strings, structs and function pointers),
; zeroinitializer, nested aggregate constants, bitcast/getelementptr/
; ptrtoint/inttoptr/select-free constant expressions as initializers and
; operands, an alias, and tables of function pointers.
; Opaque-pointer (LLVM 19) dialect.
; EXPECT-OUTPUT: 10 20 30 7 12 3 104 101 2 5 1

%pair = type { i32, [2 x i16] }
%handler = type { ptr, ptr }

@.fmt = private unnamed_addr constant [4 x i8] c"%d\0A\00", align 1
@ints = global [3 x i32] [i32 10, i32 20, i32 30], align 4
@zeros = internal global [4 x i64] zeroinitializer, align 16
@pairs = constant [2 x %pair] [%pair { i32 7, [2 x i16] [i16 1, i16 2] },
                               %pair { i32 12, [2 x i16] [i16 3, i16 4] }]
@msg = private constant [6 x i8] c"hello\00"
@strings = global [2 x ptr] [ptr getelementptr inbounds ([6 x i8], ptr @msg, i32 0, i32 0),
                             ptr getelementptr inbounds ([6 x i8], ptr @msg, i64 0, i64 1)]
@counter = global i32 0
@handlers = global [2 x %handler] [
  %handler { ptr @counter, ptr @bump },
  %handler { ptr @zeros, ptr @poke }
]
@ints.end = global ptr getelementptr ([3 x i32], ptr @ints, i64 1, i64 0)
@ints.bytes = global i64 sub (i64 ptrtoint (ptr getelementptr ([3 x i32], ptr @ints, i64 0, i64 2) to i64), i64 ptrtoint (ptr @ints to i64))
@back = global ptr inttoptr (i64 ptrtoint (ptr @counter to i64) to ptr)
@ints.alias = alias [3 x i32], ptr @ints

define void @bump(ptr %p) {
entry:
  %v = load i32, ptr %p
  %v1 = add i32 %v, 1
  store i32 %v1, ptr %p
  ret void
}

define void @poke(ptr %p) {
entry:
  %slot = getelementptr inbounds i64, ptr %p, i64 3
  store i64 5, ptr %slot
  ret void
}

define i32 @main() {
entry:
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %p = getelementptr inbounds [3 x i32], ptr @ints.alias, i64 0, i64 %i
  %v = load i32, ptr %p, align 4
  call void @print(i32 %v)
  %i.next = add nuw nsw i64 %i, 1
  %more = icmp ult i64 %i.next, 3
  br i1 %more, label %loop, label %pairs

pairs:
  %a = load i32, ptr getelementptr inbounds ([2 x %pair], ptr @pairs, i64 0, i64 0, i32 0)
  call void @print(i32 %a)
  %b = load i32, ptr getelementptr inbounds ([2 x %pair], ptr @pairs, i64 0, i64 1, i32 0)
  call void @print(i32 %b)
  %h16 = load i16, ptr getelementptr inbounds ([2 x %pair], ptr @pairs, i64 0, i64 1, i32 1, i64 0)
  %h32 = zext i16 %h16 to i32
  call void @print(i32 %h32)
  %s0 = load ptr, ptr getelementptr inbounds ([2 x ptr], ptr @strings, i64 0, i64 0)
  %c0 = load i8, ptr %s0
  %c0.i = zext i8 %c0 to i32
  call void @print(i32 %c0.i)
  %s1 = load ptr, ptr getelementptr inbounds ([2 x ptr], ptr @strings, i64 0, i64 1)
  %c1 = load i8, ptr %s1
  %c1.i = zext i8 %c1 to i32
  call void @print(i32 %c1.i)
  br label %dispatch

dispatch:
  %j = phi i64 [ 0, %pairs ], [ %j.next, %dispatch ]
  %fn.addr = getelementptr inbounds [2 x %handler], ptr @handlers, i64 0, i64 %j, i32 1
  %fn = load ptr, ptr %fn.addr
  %arg.addr = getelementptr inbounds [2 x %handler], ptr @handlers, i64 0, i64 %j, i32 0
  %arg = load ptr, ptr %arg.addr
  call void %fn(ptr %arg)
  call void %fn(ptr %arg)
  %j.next = add i64 %j, 1
  %again = icmp eq i64 %j.next, 1
  br i1 %again, label %dispatch, label %report

report:
  %cnt = load i32, ptr @counter
  call void @print(i32 %cnt)
  %z = load i64, ptr getelementptr inbounds ([4 x i64], ptr @zeros, i64 0, i64 3)
  %z32 = trunc i64 %z to i32
  call void @print(i32 %z32)
  %end = load ptr, ptr @ints.end
  %bytes = load i64, ptr @ints.bytes
  %back = load ptr, ptr @back
  %same = icmp eq ptr %back, @counter
  %ok.end = icmp eq ptr %end, bitcast (ptr getelementptr (i8, ptr @ints, i64 12) to ptr)
  %ok.bytes = icmp eq i64 %bytes, 8
  %ok1 = and i1 %same, %ok.end
  %ok = and i1 %ok1, %ok.bytes
  %ok.i = zext i1 %ok to i32
  call void @print(i32 %ok.i)
  ret i32 0
}

define void @print(i32 %v) {
entry:
  %fmt = getelementptr inbounds [4 x i8], ptr @.fmt, i64 0, i64 0
  %r = call i32 (ptr, ...) @printf(ptr %fmt, i32 %v)
  ret void
}

declare i32 @printf(ptr, ...)
