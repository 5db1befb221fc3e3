; A list builder under the runtime's moving collector (runtime/stackless): every node is allocated
; through a statepoint that may collect, moving this function's frame and every node. The list head
; lives only in an explicit GC slot (offset 16), so the collector updates it; the caller's frame
; pointer is the link slot (offset 0). Each iteration also allocates a garbage object, so the small
; heap fills and collects many times. After the loop the list is walked and summed.

declare token @llvm.gc.frame.layout(ptr, i32, i32)
declare token @llvm.frame.layout(ptr, i32)
declare i32 @llvm.gc.frame.spillsz()
declare void @llvm.gc.frame.save(token, ...)
declare token @llvm.gc.frame.statepoint(...)
declare token @llvm.gc.frame.accessor(token)
declare ptr @llvm.frame.sp(token)
declare ptr @llvm.gc.frame.load.p0(token, i32)
declare ptr @llvm.gc.frame.result.p0(token)
declare { ptr, i64 } @llvm.frame.return.i64(token, i64)
declare { ptr, ptr } @llcoro_gc_alloc(ptr, i64, i32)
declare { ptr, ptr } @llcoro_gc_alloc_frame(ptr, i64)

define { ptr, i64 } @build(ptr %sp_arg, i64 %n) {
entry:
  %spill = call i32 @llvm.gc.frame.spillsz()
  %size32 = add i32 %spill, 24
  %size = zext i32 %size32 to i64
  ; The frame comes from the collected heap; allocating it may move the caller's frame.
  %fa = call { ptr, ptr } @llcoro_gc_alloc_frame(ptr %sp_arg, i64 %size)
  %caller = extractvalue { ptr, ptr } %fa, 0
  %sp = extractvalue { ptr, ptr } %fa, 1
  %first = call token @llvm.gc.frame.layout(ptr %sp, i32 8, i32 24)
  call void (token, ...) @llvm.gc.frame.save(token %first, ptr %caller, i32 0)
  call void (token, ...) @llvm.gc.frame.save(token %first, ptr null, i32 16)
  br label %loop

loop:
  %cur = phi ptr [ %sp, %entry ], [ %after, %loop ]
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %lay = call token @llvm.gc.frame.layout(ptr %cur, i32 8, i32 24)
  ; A node: two words, the first a GC pointer (next), the second the value.
  %t = call token (...) @llvm.gc.frame.statepoint(ptr @llcoro_gc_alloc, i64 16, i32 1, token %lay)
  %node = call ptr @llvm.gc.frame.result.p0(token %t)
  %a = call token @llvm.gc.frame.accessor(token %t)
  %next = call ptr @llvm.frame.sp(token %a)
  %head = call ptr @llvm.gc.frame.load.p0(token %a, i32 16)
  store ptr %head, ptr %node
  %vp = getelementptr inbounds i8, ptr %node, i64 8
  store i64 %i, ptr %vp
  %lay2 = call token @llvm.gc.frame.layout(ptr %next, i32 8, i32 24)
  call void (token, ...) @llvm.gc.frame.save(token %lay2, ptr %node, i32 16)
  ; Garbage: a 64-byte object nothing keeps, so that the heap fills and collects.
  %g = call token (...) @llvm.gc.frame.statepoint(ptr @llcoro_gc_alloc, i64 64, i32 0, token %lay2)
  %ga = call token @llvm.gc.frame.accessor(token %g)
  %after = call ptr @llvm.frame.sp(token %ga)
  %i1 = add i64 %i, 1
  %more = icmp slt i64 %i1, %n
  br i1 %more, label %loop, label %collected

collected:
  %list = call ptr @llvm.gc.frame.load.p0(token %ga, i32 16)
  br label %walk

walk:
  %p = phi ptr [ %list, %collected ], [ %pn, %step ]
  %sum = phi i64 [ 0, %collected ], [ %sum1, %step ]
  %end = icmp eq ptr %p, null
  br i1 %end, label %done, label %step

step:
  %pv = getelementptr inbounds i8, ptr %p, i64 8
  %v = load i64, ptr %pv
  %sum1 = add i64 %sum, %v
  %pn = load ptr, ptr %p
  br label %walk

done:
  %back = call ptr @llvm.gc.frame.load.p0(token %ga, i32 0)
  %rl = call token @llvm.frame.layout(ptr %back, i32 8)
  %r = call { ptr, i64 } @llvm.frame.return.i64(token %rl, i64 %sum)
  ret { ptr, i64 } %r
}
