; ERROR-AT: 6:13
; Call of a function that is neither declared nor defined: the error is at
; the reference to @missing.
define void @f() {
entry:
  call void @missing(i32 1)
  ret void
}
