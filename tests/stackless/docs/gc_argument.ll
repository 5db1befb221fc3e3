; docs/stackless.md, "Passing a GC pointer to a callee" and "Accessor tokens": this file is the
; example the document shows, run by crates/llcoro/tests/stackless.rs under the collector in stress
; mode (a collection at every allocation, so every frame and object moves each time).

declare token @llvm.gc.frame.layout(ptr, i32, i32)
declare token @llvm.frame.layout(ptr, i32)
declare i32 @llvm.gc.frame.spillsz()
declare void @llvm.gc.frame.save(token, ...)
declare token @llvm.gc.frame.statepoint(...)
declare token @llvm.gc.frame.accessor(token)
declare ptr @llvm.gc.frame.load.p0(token, i32)
declare ptr @llvm.gc.frame.result.p0(token)
declare i64 @llvm.gc.frame.result.i64(token)
declare { ptr, i64 } @llvm.frame.return.i64(token, i64)
declare { ptr, ptr } @llcoro_gc_alloc(ptr, i64, i32)
declare { ptr, ptr } @llcoro_gc_alloc_frame(ptr, i64)

; Frames of both functions: 0 the caller's frame pointer, 8 the return-address key, 16 an object
; (a GC slot), 24 llcoro's spill area.

; Makes an object {ptr next, i64 value} holding %n and hands it to @child, which returns its value
; times 3 plus 1; returns that plus the object's value read back after the call.
define { ptr, i64 } @parent(ptr %sp_arg, i64 %n) {
entry:
  %spill = call i32 @llvm.gc.frame.spillsz()
  %size32 = add i32 %spill, 24
  %size = zext i32 %size32 to i64
  %fa = call { ptr, ptr } @llcoro_gc_alloc_frame(ptr %sp_arg, i64 %size)
  %caller = extractvalue { ptr, ptr } %fa, 0
  %sp = extractvalue { ptr, ptr } %fa, 1
  %lay = call token @llvm.gc.frame.layout(ptr %sp, i32 8, i32 24)
  call void (token, ...) @llvm.gc.frame.save(token %lay, ptr %caller, i32 0)
  %t = call token (...) @llvm.gc.frame.statepoint(ptr @llcoro_gc_alloc, i64 16, i32 1, token %lay)
  %obj = call ptr @llvm.gc.frame.result.p0(token %t)
  %acc = call token @llvm.gc.frame.accessor(token %t)
  %vp = getelementptr inbounds i8, ptr %obj, i64 8
  store i64 %n, ptr %vp
  ; The accessor is a frame token, as a layout is: save through it and call through it.
  call void (token, ...) @llvm.gc.frame.save(token %acc, ptr %obj, i32 16)
  ; The object is not passed: @child finds it in this frame's slot 16, which the collector updates.
  %t2 = call token (...) @llvm.gc.frame.statepoint(ptr @child, i64 16, token %acc)
  %r = call i64 @llvm.gc.frame.result.i64(token %t2)
  %acc2 = call token @llvm.gc.frame.accessor(token %t2)
  %obj2 = call ptr @llvm.gc.frame.load.p0(token %acc2, i32 16)
  %vp2 = getelementptr inbounds i8, ptr %obj2, i64 8
  %v = load i64, ptr %vp2
  %sum = add i64 %r, %v
  %back = call ptr @llvm.gc.frame.load.p0(token %acc2, i32 0)
  %rl = call token @llvm.frame.layout(ptr %back, i32 8)
  %ret = call { ptr, i64 } @llvm.frame.return.i64(token %rl, i64 %sum)
  ret { ptr, i64 } %ret
}

; Reads the object in its caller's slot %off: allocating this frame may collect, which moves the
; caller's frame and the object. The allocation returns where the caller's frame is now, and
; the caller's slot holds where the object is now.
define { ptr, i64 } @child(ptr %sp_arg, i64 %off) {
entry:
  %spill = call i32 @llvm.gc.frame.spillsz()
  %size32 = add i32 %spill, 24
  %size = zext i32 %size32 to i64
  %fa = call { ptr, ptr } @llcoro_gc_alloc_frame(ptr %sp_arg, i64 %size)
  %caller = extractvalue { ptr, ptr } %fa, 0
  %sp = extractvalue { ptr, ptr } %fa, 1
  %slot = getelementptr inbounds i8, ptr %caller, i64 %off
  %obj = load ptr, ptr %slot
  %lay = call token @llvm.gc.frame.layout(ptr %sp, i32 8, i32 24)
  call void (token, ...) @llvm.gc.frame.save(token %lay, ptr %caller, i32 0)
  ; Kept across the next allocation in this frame's own GC slot.
  call void (token, ...) @llvm.gc.frame.save(token %lay, ptr %obj, i32 16)
  %t = call token (...) @llvm.gc.frame.statepoint(ptr @llcoro_gc_alloc, i64 16, i32 1, token %lay)
  %acc = call token @llvm.gc.frame.accessor(token %t)
  %o = call ptr @llvm.gc.frame.load.p0(token %acc, i32 16)
  %vp = getelementptr inbounds i8, ptr %o, i64 8
  %v = load i64, ptr %vp
  %v3 = mul i64 %v, 3
  %r = add i64 %v3, 1
  %back = call ptr @llvm.gc.frame.load.p0(token %acc, i32 0)
  %rl = call token @llvm.frame.layout(ptr %back, i32 8)
  %ret = call { ptr, i64 } @llvm.frame.return.i64(token %rl, i64 %r)
  ret { ptr, i64 } %ret
}
