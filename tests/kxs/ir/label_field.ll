; No __kxs_begin: the label slot is found from the code, as the address the `_label = &&resume`
; store before each marker writes to (field 1 of %struct.cont, 8 bytes in), not the first word of
; the object. The seed's successor assumed offset 0; here offset 0 holds a tag that must survive.
; Only parameters are used after the suspends, so no frame is needed.

%struct.cont = type { i64, ptr, i32 }

declare void @__kxs_suspend_point(i32)
declare i32 @printf(ptr, ...)

@.fmt = private constant [17 x i8] c"part %d tag=%ld\0A\00"
@__kxs_coroutine_suspended = global i8 0

define ptr @steps(ptr %c) {
entry:
  %label = getelementptr inbounds %struct.cont, ptr %c, i32 0, i32 1
  %tag.p = getelementptr inbounds %struct.cont, ptr %c, i32 0, i32 0
  %tag = load i64, ptr %tag.p
  call i32 (ptr, ...) @printf(ptr @.fmt, i32 1, i64 %tag)
  store ptr blockaddress(@steps, %one), ptr %label, align 8
  call void @__kxs_suspend_point(i32 1)
  br label %one

one:
  %tag.p1 = getelementptr inbounds %struct.cont, ptr %c, i32 0, i32 0
  %tag1 = load i64, ptr %tag.p1
  call i32 (ptr, ...) @printf(ptr @.fmt, i32 2, i64 %tag1)
  %label1 = getelementptr inbounds %struct.cont, ptr %c, i32 0, i32 1
  store ptr blockaddress(@steps, %two), ptr %label1, align 8
  call void @__kxs_suspend_point(i32 2)
  br label %two

two:
  %tag.p2 = getelementptr inbounds %struct.cont, ptr %c, i32 0, i32 0
  %tag2 = load i64, ptr %tag.p2
  call i32 (ptr, ...) @printf(ptr @.fmt, i32 3, i64 %tag2)
  ret ptr null
}

define i32 @main() {
entry:
  %c = alloca %struct.cont
  store %struct.cont { i64 4242, ptr null, i32 0 }, ptr %c
  br label %loop
loop:
  %r = call ptr @steps(ptr %c)
  %again = icmp eq ptr %r, @__kxs_coroutine_suspended
  br i1 %again, label %loop, label %done
done:
  ret i32 0
}

; EXPECT:
; part 1 tag=4242
; part 2 tag=4242
; part 3 tag=4242
