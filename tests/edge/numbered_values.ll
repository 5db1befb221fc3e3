; Stresses: implicit numbering: unnamed globals (@0, @1) referenced before
; and after their definition, unnamed parameters (%0, %1), an unnamed entry
; block (implicitly %2 after two unnamed parameters), explicitly numbered
; block labels ("3:") and values, numbered values mixed with named ones,
; forward references to numbered values in phis, numbered attribute groups
; and metadata, and a function whose entry block has no label at all.

@0 = private constant [3 x i8] c"hi\00"
@1 = global ptr @0
@named = global ptr @2
@2 = internal global i32 42

define i32 @numbered(i32 %0, i32 %1) #0 {
  %3 = add i32 %0, %1
  br label %4

4:
  %5 = phi i32 [ %3, %2 ], [ %7, %6 ]
  %cmp = icmp slt i32 %5, 100
  br i1 %cmp, label %6, label %8

6:
  %7 = mul i32 %5, 2, !annot !0
  br label %4

8:
  %named.ret = add i32 %5, 0
  ret i32 %named.ret
}

define void @unlabelled_entry(ptr %p) #1 {
  store i32 0, ptr %p, align 4
  ret void
}

define i32 @explicit_numbers() {
0:
  %1 = load i32, ptr @2, align 4
  br label %2

2:
  %3 = add i32 %1, 1
  ret i32 %3
}

define void @all_unnamed(i32, ptr) {
  store i32 %0, ptr %1, align 4
  ret void
}

attributes #0 = { nounwind }
attributes #1 = { "frame-pointer"="all" noinline }

!0 = !{!"doubled"}
