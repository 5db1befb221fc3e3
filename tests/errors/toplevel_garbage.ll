; ERROR-AT: 8:1
; Garbage at the top level between two valid functions: the error is at
; the first token that cannot start a top-level entity.
define void @f() {
  ret void
}

hello world

define void @g() {
  ret void
}
