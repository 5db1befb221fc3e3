; FINDING: error kxs-label-slot 16:3
; Two suspend points store the same resume address (what the seed's
; __LINE__ labels give for two yields on one source line).

declare void @__kxs_suspend_point(i32)
declare void @__kxs_begin(ptr, ptr)

define ptr @f(ptr %cont) {
entry:
  %frame = getelementptr inbounds i8, ptr %cont, i64 8
  call void @__kxs_begin(ptr %cont, ptr %frame)
  store ptr blockaddress(@f, %r), ptr %cont, align 8
  call void @__kxs_suspend_point(i32 7)
  br label %r
r:
  store ptr blockaddress(@f, %r), ptr %cont, align 8
  call void @__kxs_suspend_point(i32 7)
  br label %done
done:
  ret ptr null
}
