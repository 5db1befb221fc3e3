; A deep recursion of stackless functions under the runtime's collector in stress mode (a
; collection at every allocation; main.c). @chain(sp, d, n) makes level d of n+1 levels:
;   - its frame comes from the collected heap (llcoro_gc_alloc_frame), laid out as
;       0: the caller's frame pointer (the link, a GC slot)   8: the return-address key
;       16: this level's object (a GC slot)                   24: llcoro's spill area
;   - it allocates an object {parent, value, level} through a statepoint to llcoro_gc_alloc; the
;     parent is the object of the level above, read from the caller's frame slot 16 (level 0 reads
;     the root frame's, which is null). The object is kept only in slot 16;
;   - k1, k2, rem (and d) are plain SSA values live across the next call: llcoro spills them;
;   - it calls @chain(d+1) through a statepoint, or at the bottom (d == n) @at_bottom in main.c,
;     which walks the chain through the runtime and collects once more;
;   - on the way back it reads its object back from the frame the callee returned, checks that
;     the object's parent is still what the caller's slot 16 holds, walks the whole parent chain
;     up to level 0 checking every value and level (@chain_broken on a mismatch), and combines
;     the callee's result with its spilled values and its object's value.
; Every allocation collects, so every frame and object on the chain moves each time.

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
declare { ptr, i64 } @at_bottom(ptr, i64)
declare void @chain_broken(i64, i64)

define { ptr, i64 } @chain(ptr %sp_arg, i64 %d, i64 %n) {
entry:
  %spill = call i32 @llvm.gc.frame.spillsz()
  %size32 = add i32 %spill, 24
  %size = zext i32 %size32 to i64
  ; Allocating the frame may move every frame above (the caller is suspended at its call to us).
  %fa = call { ptr, ptr } @llcoro_gc_alloc_frame(ptr %sp_arg, i64 %size)
  %caller0 = extractvalue { ptr, ptr } %fa, 0
  %sp = extractvalue { ptr, ptr } %fa, 1
  %lay = call token @llvm.gc.frame.layout(ptr %sp, i32 8, i32 24)
  call void (token, ...) @llvm.gc.frame.save(token %lay, ptr %caller0, i32 0)
  ; The object: 3 words, the first a GC pointer.
  %t = call token (...) @llvm.gc.frame.statepoint(ptr @llcoro_gc_alloc, i64 24, i32 1, token %lay)
  %obj = call ptr @llvm.gc.frame.result.p0(token %t)
  %a = call token @llvm.gc.frame.accessor(token %t)
  %caller = call ptr @llvm.gc.frame.load.p0(token %a, i32 0)
  %pslot = getelementptr inbounds i8, ptr %caller, i64 16
  %pobj = load ptr, ptr %pslot
  store ptr %pobj, ptr %obj
  %vm = mul i64 %d, 2654435761
  %val = xor i64 %vm, 1540483477
  %vp = getelementptr inbounds i8, ptr %obj, i64 8
  store i64 %val, ptr %vp
  %lp = getelementptr inbounds i8, ptr %obj, i64 16
  store i64 %d, ptr %lp
  %sp1 = call ptr @llvm.frame.sp(token %a)
  %lay1 = call token @llvm.gc.frame.layout(ptr %sp1, i32 8, i32 24)
  call void (token, ...) @llvm.gc.frame.save(token %lay1, ptr %obj, i32 16)
  ; Live across the next call, not saved by us: spilled by llcoro.
  %dd = mul i64 %d, %d
  %k1 = add i64 %dd, 7
  %d32 = trunc i64 %d to i32
  %k2m = mul i32 %d32, 40503
  %k2 = xor i32 %k2m, 9541
  %rem = sub i64 %n, %d
  %last = icmp eq i64 %d, %n
  br i1 %last, label %bottom, label %deeper

deeper:
  %d1 = add i64 %d, 1
  %tc = call token (...) @llvm.gc.frame.statepoint(ptr @chain, i64 %d1, i64 %n, token %lay1)
  %rc = call i64 @llvm.gc.frame.result.i64(token %tc)
  %ac = call token @llvm.gc.frame.accessor(token %tc)
  %oc = call ptr @llvm.gc.frame.load.p0(token %ac, i32 16)
  %cc = call ptr @llvm.gc.frame.load.p0(token %ac, i32 0)
  br label %back

bottom:
  %tb = call token (...) @llvm.gc.frame.statepoint(ptr @at_bottom, i64 %n, token %lay1)
  %rb = call i64 @llvm.gc.frame.result.i64(token %tb)
  %ab = call token @llvm.gc.frame.accessor(token %tb)
  %ob = call ptr @llvm.gc.frame.load.p0(token %ab, i32 16)
  %cb = call ptr @llvm.gc.frame.load.p0(token %ab, i32 0)
  br label %back

back:
  %child = phi i64 [ %rc, %deeper ], [ %rb, %bottom ]
  %o = phi ptr [ %oc, %deeper ], [ %ob, %bottom ]
  %up = phi ptr [ %cc, %deeper ], [ %cb, %bottom ]
  ; The object's parent is the object the caller's slot 16 holds now (both moved many times).
  %ups = getelementptr inbounds i8, ptr %up, i64 16
  %upo = load ptr, ptr %ups
  %o0 = load ptr, ptr %o
  %same = icmp eq ptr %o0, %upo
  br i1 %same, label %walk, label %broken

walk:
  %p = phi ptr [ %o, %back ], [ %pn, %next ]
  %j = phi i64 [ %d, %back ], [ %j1, %next ]
  %pvp = getelementptr inbounds i8, ptr %p, i64 8
  %pv = load i64, ptr %pvp
  %plp = getelementptr inbounds i8, ptr %p, i64 16
  %pl = load i64, ptr %plp
  %wm = mul i64 %j, 2654435761
  %w = xor i64 %wm, 1540483477
  %okv = icmp eq i64 %pv, %w
  %okl = icmp eq i64 %pl, %j
  %ok = and i1 %okv, %okl
  br i1 %ok, label %step, label %broken

step:
  %pn = load ptr, ptr %p
  %end = icmp eq ptr %pn, null
  br i1 %end, label %ended, label %next

next:
  %j1 = sub i64 %j, 1
  br label %walk

ended:
  %top = icmp eq i64 %j, 0
  br i1 %top, label %combine, label %broken

broken:
  %bj = phi i64 [ -1, %back ], [ %j, %walk ], [ %j, %ended ]
  call void @chain_broken(i64 %d, i64 %bj)
  unreachable

combine:
  %m = mul i64 %child, 31
  %s = add i64 %m, %k1
  %k2z = zext i32 %k2 to i64
  %x = xor i64 %s, %k2z
  %ovp = getelementptr inbounds i8, ptr %o, i64 8
  %ov = load i64, ptr %ovp
  %ov3 = mul i64 %ov, 3
  %y = add i64 %x, %ov3
  %res = add i64 %y, %rem
  %rl = call token @llvm.frame.layout(ptr %up, i32 8)
  %r = call { ptr, i64 } @llvm.frame.return.i64(token %rl, i64 %res)
  ret { ptr, i64 } %r
}
