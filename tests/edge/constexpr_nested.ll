; Stresses: nested constant expressions, limited to the kinds LLVM 19 still
; accepts as constant expressions: getelementptr (plain and inbounds),
; ptrtoint, inttoptr, trunc, bitcast,
; addrspacecast, add/sub/xor (with nuw/nsw), extractelement,
; insertelement and shufflevector. Nesting: gep of gep inside ptrtoint
; inside sub/add inside trunc, used as global initializers and as
; instruction operands, split over several lines.

%pair = type { i32, [4 x i16] }

@table = global [8 x %pair] zeroinitializer, align 16
@base = global i8 0
@other = addrspace(1) global i32 0

; offset of table[3].1[2] from the start of the table, computed as a constant
@off = global i64 sub (i64 ptrtoint (ptr getelementptr inbounds (%pair, ptr getelementptr inbounds ([8 x %pair], ptr @table, i64 0, i64 3), i64 0, i32 1, i64 2) to i64), i64 ptrtoint (ptr @table to i64))

; relative pointer (32-bit), the classic "relative vtable" pattern
@rel = constant i32 trunc (i64 sub (i64 ptrtoint (ptr @base to i64), i64 ptrtoint (ptr @rel to i64)) to i32)

; ptrtoint/inttoptr round trip plus an add with flags
@moved = global ptr inttoptr (i64 add nuw nsw (i64 ptrtoint (ptr @table to i64), i64 16) to ptr)

; gep of gep with i8 source element type
@bytes = global ptr getelementptr (i8, ptr getelementptr (i8, ptr getelementptr inbounds (i8, ptr @base, i64 1), i64 2), i64 -3)

; xor of two ptrtoints
@mix = global i64 xor (i64 ptrtoint (ptr @base to i64), i64 ptrtoint (ptr @table to i64))

; addrspacecast
@generic = global ptr addrspacecast (ptr addrspace(1) @other to ptr)

; vector constant expressions
@lane = global i32 extractelement (<4 x i32> <i32 10, i32 20, i32 30, i32 40>, i32 2)
@ins = global <2 x ptr> insertelement (<2 x ptr> zeroinitializer, ptr @base, i32 1)
@shuf = global <4 x i32> shufflevector (<2 x i32> <i32 1, i32 2>, <2 x i32> <i32 3, i32 4>, <4 x i32> <i32 3, i32 2, i32 1, i32 0>)

; bitcast of a vector constant to an integer
@bits = global i64 bitcast (<2 x i32> <i32 1, i32 2> to i64)

define i64 @use() {
entry:
  %a = load i16, ptr getelementptr inbounds ([8 x %pair], ptr @table, i64 0, i64 5, i32 1, i64 3), align 2
  %b = add i64 ptrtoint (ptr getelementptr (i8, ptr @base, i64 sub (i64 ptrtoint (ptr @table to i64), i64 ptrtoint (ptr @table to i64))) to i64),
               sub (i64 ptrtoint (ptr getelementptr ([8 x %pair],
                                                      ptr @table,
                                                      i64 1) to i64),
                    i64 ptrtoint (ptr @table to i64))
  %c = zext i16 %a to i64
  %d = add i64 %b, %c
  %e = icmp eq ptr getelementptr inbounds (i8, ptr @base, i64 0), @base
  %f = select i1 %e, i64 %d, i64 0
  ret i64 %f
}
