; FINDING: error kxs-label-slot 13:3
; The resume address is stored to another field than the label slot the
; function names: the dispatch would read a slot nothing writes.

declare void @__kxs_suspend_point(i32)
declare void @__kxs_begin(ptr, ptr)

define ptr @f(ptr %cont) {
entry:
  %frame = getelementptr inbounds i8, ptr %cont, i64 8
  %other = getelementptr inbounds i8, ptr %cont, i64 16
  call void @__kxs_begin(ptr %cont, ptr %frame)
  store ptr blockaddress(@f, %r), ptr %other, align 8
  call void @__kxs_suspend_point(i32 7)
  br label %r
r:
  ret ptr null
}
