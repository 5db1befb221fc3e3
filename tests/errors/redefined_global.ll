; ERROR-AT: 4:1
; A global variable defined twice: the error is at the second definition.
@g = global i32 0
@g = global i32 1
