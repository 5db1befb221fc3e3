; Stresses: blockaddress constants and indirectbr: global jump tables of
; blockaddresses (referring forward to a function defined later, to a
; quoted label, to a numbered block and to the function using the table),
; blockaddress inside a constant expression, blockaddress of the enclosing
; function as an indirectbr operand, and indirectbr with several
; destinations. (llvm-diff reports a difference for a blockaddress operand
; whose block it has not matched yet, even when comparing a file with
; itself, so such operands appear only where it copes.)

@table = constant [3 x ptr] [ptr blockaddress(@dispatch, %one), ptr blockaddress(@dispatch, %"two words"), ptr blockaddress(@dispatch, %3)]
@diff = constant i64 sub (i64 ptrtoint (ptr blockaddress(@dispatch, %one) to i64), i64 ptrtoint (ptr blockaddress(@dispatch, %3) to i64))

define i32 @dispatch(i64 %i) {
entry:
  %slot = getelementptr inbounds [3 x ptr], ptr @table, i64 0, i64 %i
  %target = load ptr, ptr %slot, align 8
  indirectbr ptr %target, [label %one, label %"two words", label %3]

one:
  ret i32 1

"two words":
  ret i32 2

3:
  ret i32 3
}

@direct.targets = constant [2 x ptr] [ptr blockaddress(@direct, %yes), ptr blockaddress(@direct, %no)]

define ptr @direct(i1 %c) {
entry:
  %i = zext i1 %c to i64
  %slot = getelementptr [2 x ptr], ptr @direct.targets, i64 0, i64 %i
  %p = load ptr, ptr %slot, align 8
  indirectbr ptr %p, [label %yes, label %no]

yes:
  ret ptr @direct.targets

no:
  ret ptr null
}

define void @local(ptr %dest) {
entry:
  indirectbr ptr %dest, [label %back, label %out]

back:
  indirectbr ptr blockaddress(@local, %out), [label %out]

out:
  ret void
}
