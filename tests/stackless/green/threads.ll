; Green threads under the runtime's moving collector (main.c is the scheduler). A thread is
; @worker, which calls @step once per iteration; @step yields in the middle, through a statepoint
; to the C function @green_yield, which never returns: it records @step's frame as the thread's
; continuation and longjmps to the scheduler, dropping the native stack. Everything a thread needs
; afterwards is in its two heap frames. The scheduler continues a thread through the re-entry
; functions of the frame descriptor table: first @step's, with a resume value it chooses; when
; that returns into @worker's frame, @worker's, with @step's result.
;
; @worker's frame: 0 the caller's frame (link), 8 the key, 16 the head of a list of its results
; (a GC slot), 24 the spill area. @step's frame: 0 link, 8 key, 16 an object {id, i, yielded}
; (GC slot), 24 an object {that object, resume value} (GC slot), 32 the spill area.
; Every object and frame comes from the collected heap, and each step also allocates garbage.

declare token @llvm.gc.frame.layout(ptr, i32, i32)
declare token @llvm.frame.layout(ptr, i32)
declare i32 @llvm.gc.frame.spillsz()
declare void @llvm.gc.frame.save(token, ...)
declare token @llvm.gc.frame.statepoint(...)
declare token @llvm.gc.frame.accessor(token)
declare ptr @llvm.frame.sp(token)
declare ptr @llvm.gc.frame.load.p0(token, i32)
declare ptr @llvm.gc.frame.result.p0(token)
declare i64 @llvm.gc.frame.result.i64(token)
declare { ptr, i64 } @llvm.frame.return.i64(token, i64)
declare { ptr, ptr } @llcoro_gc_alloc(ptr, i64, i32)
declare { ptr, ptr } @llcoro_gc_alloc_frame(ptr, i64)
declare { ptr, i64 } @green_yield(ptr, i64)
declare void @green_broken(i64, i64)

; One step of thread %id: yields id * 100 + i, and returns v * 7 + id * 13 + i + (i ^ 85), v being
; the value it was resumed with, after checking that its objects survived the moves.
define { ptr, i64 } @step(ptr %sp_arg, i64 %id, i64 %i) {
entry:
  %spill = call i32 @llvm.gc.frame.spillsz()
  %size32 = add i32 %spill, 32
  %size = zext i32 %size32 to i64
  %fa = call { ptr, ptr } @llcoro_gc_alloc_frame(ptr %sp_arg, i64 %size)
  %caller0 = extractvalue { ptr, ptr } %fa, 0
  %sp = extractvalue { ptr, ptr } %fa, 1
  %lay = call token @llvm.gc.frame.layout(ptr %sp, i32 8, i32 32)
  call void (token, ...) @llvm.gc.frame.save(token %lay, ptr %caller0, i32 0)
  ; {id, i, yielded}: no pointers.
  %t = call token (...) @llvm.gc.frame.statepoint(ptr @llcoro_gc_alloc, i64 24, i32 0, token %lay)
  %obj = call ptr @llvm.gc.frame.result.p0(token %t)
  %a = call token @llvm.gc.frame.accessor(token %t)
  %y100 = mul i64 %id, 100
  %yv = add i64 %y100, %i
  store i64 %id, ptr %obj
  %f1 = getelementptr inbounds i8, ptr %obj, i64 8
  store i64 %i, ptr %f1
  %f2 = getelementptr inbounds i8, ptr %obj, i64 16
  store i64 %yv, ptr %f2
  %sp1 = call ptr @llvm.frame.sp(token %a)
  %lay1 = call token @llvm.gc.frame.layout(ptr %sp1, i32 8, i32 32)
  call void (token, ...) @llvm.gc.frame.save(token %lay1, ptr %obj, i32 16)
  ; Live across the yield, not saved by us: spilled by llcoro.
  %i32 = trunc i64 %i to i32
  %salt = xor i32 %i32, 85
  ; The yield: the scheduler continues from here, on another native stack, with a value of its own.
  %ty = call token (...) @llvm.gc.frame.statepoint(ptr @green_yield, i64 %yv, token %lay1)
  %v = call i64 @llvm.gc.frame.result.i64(token %ty)
  %ay = call token @llvm.gc.frame.accessor(token %ty)
  %sp2 = call ptr @llvm.frame.sp(token %ay)
  %lay2 = call token @llvm.gc.frame.layout(ptr %sp2, i32 8, i32 32)
  ; {object, v}: one pointer.
  %t2 = call token (...) @llvm.gc.frame.statepoint(ptr @llcoro_gc_alloc, i64 16, i32 1, token %lay2)
  %obj2 = call ptr @llvm.gc.frame.result.p0(token %t2)
  %a2 = call token @llvm.gc.frame.accessor(token %t2)
  %o = call ptr @llvm.gc.frame.load.p0(token %a2, i32 16)
  store ptr %o, ptr %obj2
  %g1 = getelementptr inbounds i8, ptr %obj2, i64 8
  store i64 %v, ptr %g1
  %sp3 = call ptr @llvm.frame.sp(token %a2)
  %lay3 = call token @llvm.gc.frame.layout(ptr %sp3, i32 8, i32 32)
  call void (token, ...) @llvm.gc.frame.save(token %lay3, ptr %obj2, i32 24)
  ; Scratch space nothing keeps (its result is not read): garbage, so that a small heap fills.
  %t3 = call token (...) @llvm.gc.frame.statepoint(ptr @llcoro_gc_alloc, i64 512, i32 0, token %lay3)
  %a3 = call token @llvm.gc.frame.accessor(token %t3)
  %p2 = call ptr @llvm.gc.frame.load.p0(token %a3, i32 24)
  %p1 = call ptr @llvm.gc.frame.load.p0(token %a3, i32 16)
  %q = load ptr, ptr %p2
  %c0 = icmp eq ptr %q, %p1
  %pid = load i64, ptr %p1
  %c1 = icmp eq i64 %pid, %id
  %pip = getelementptr inbounds i8, ptr %p1, i64 8
  %pi = load i64, ptr %pip
  %c2 = icmp eq i64 %pi, %i
  %pyp = getelementptr inbounds i8, ptr %p1, i64 16
  %py = load i64, ptr %pyp
  %c3 = icmp eq i64 %py, %yv
  %pvp = getelementptr inbounds i8, ptr %p2, i64 8
  %pv = load i64, ptr %pvp
  %c4 = icmp eq i64 %pv, %v
  %k01 = and i1 %c0, %c1
  %k23 = and i1 %c2, %c3
  %k0123 = and i1 %k01, %k23
  %ok = and i1 %k0123, %c4
  br i1 %ok, label %done, label %broken

broken:
  call void @green_broken(i64 %id, i64 %i)
  unreachable

done:
  %r7 = mul i64 %pv, 7
  %id13 = mul i64 %pid, 13
  %s1 = add i64 %r7, %id13
  %s2 = add i64 %s1, %pi
  %saltz = zext i32 %salt to i64
  %r = add i64 %s2, %saltz
  %caller = call ptr @llvm.gc.frame.load.p0(token %a3, i32 0)
  %rl = call token @llvm.frame.layout(ptr %caller, i32 8)
  %ret = call { ptr, i64 } @llvm.frame.return.i64(token %rl, i64 %r)
  ret { ptr, i64 } %ret
}

; Thread %id: %steps steps (at least one). acc starts at id and becomes acc * 31 + r + id * 977
; for each step's result r; each r is also pushed on a list kept in slot 16. At the end the list is
; walked newest first, h = h * 1000003 ^ r, and the thread returns acc ^ h.
define { ptr, i64 } @worker(ptr %sp_arg, i64 %id, i64 %steps) {
entry:
  %spill = call i32 @llvm.gc.frame.spillsz()
  %size32 = add i32 %spill, 24
  %size = zext i32 %size32 to i64
  %fa = call { ptr, ptr } @llcoro_gc_alloc_frame(ptr %sp_arg, i64 %size)
  %caller0 = extractvalue { ptr, ptr } %fa, 0
  %sp = extractvalue { ptr, ptr } %fa, 1
  %first = call token @llvm.gc.frame.layout(ptr %sp, i32 8, i32 24)
  call void (token, ...) @llvm.gc.frame.save(token %first, ptr %caller0, i32 0)
  call void (token, ...) @llvm.gc.frame.save(token %first, ptr null, i32 16)
  %salt = mul i64 %id, 977
  br label %loop

loop:
  %cur = phi ptr [ %sp, %entry ], [ %after, %loop ]
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %acc = phi i64 [ %id, %entry ], [ %acc1, %loop ]
  %lay = call token @llvm.gc.frame.layout(ptr %cur, i32 8, i32 24)
  %t = call token (...) @llvm.gc.frame.statepoint(ptr @step, i64 %id, i64 %i, token %lay)
  %r = call i64 @llvm.gc.frame.result.i64(token %t)
  %a = call token @llvm.gc.frame.accessor(token %t)
  %next = call ptr @llvm.frame.sp(token %a)
  %lay2 = call token @llvm.gc.frame.layout(ptr %next, i32 8, i32 24)
  ; A list node {next, r}.
  %tn = call token (...) @llvm.gc.frame.statepoint(ptr @llcoro_gc_alloc, i64 16, i32 1, token %lay2)
  %node = call ptr @llvm.gc.frame.result.p0(token %tn)
  %an = call token @llvm.gc.frame.accessor(token %tn)
  %head = call ptr @llvm.gc.frame.load.p0(token %an, i32 16)
  store ptr %head, ptr %node
  %np = getelementptr inbounds i8, ptr %node, i64 8
  store i64 %r, ptr %np
  %after = call ptr @llvm.frame.sp(token %an)
  %lay3 = call token @llvm.gc.frame.layout(ptr %after, i32 8, i32 24)
  call void (token, ...) @llvm.gc.frame.save(token %lay3, ptr %node, i32 16)
  %m = mul i64 %acc, 31
  %rs = add i64 %r, %salt
  %acc1 = add i64 %m, %rs
  %i1 = add i64 %i, 1
  %more = icmp slt i64 %i1, %steps
  br i1 %more, label %loop, label %walk_start

walk_start:
  %list = call ptr @llvm.gc.frame.load.p0(token %an, i32 16)
  br label %walk

walk:
  %p = phi ptr [ %list, %walk_start ], [ %pn, %wstep ]
  %h = phi i64 [ 0, %walk_start ], [ %h1, %wstep ]
  %k = phi i64 [ 0, %walk_start ], [ %k1, %wstep ]
  %end = icmp eq ptr %p, null
  br i1 %end, label %finished, label %wstep

wstep:
  %pvp = getelementptr inbounds i8, ptr %p, i64 8
  %pv = load i64, ptr %pvp
  %hm = mul i64 %h, 1000003
  %h1 = xor i64 %hm, %pv
  %k1 = add i64 %k, 1
  %pn = load ptr, ptr %p
  br label %walk

finished:
  %whole = icmp eq i64 %k, %steps
  br i1 %whole, label %out, label %broken

broken:
  call void @green_broken(i64 %id, i64 -1)
  unreachable

out:
  %res = xor i64 %acc1, %h
  %back = call ptr @llvm.gc.frame.load.p0(token %an, i32 0)
  %rl = call token @llvm.frame.layout(ptr %back, i32 8)
  %ret = call { ptr, i64 } @llvm.frame.return.i64(token %rl, i64 %res)
  ret { ptr, i64 } %ret
}
