; tests/retcon/dynamic_alloca.ll in typed pointers (LLVM 14).
@fmt = private constant [4 x i8] c"%d\0A\00"
declare i32 @printf(i8*, ...)
declare i8* @malloc(i64)
declare void @free(i8*)

define i8* @allocate(i32 %size) {
  %n = zext i32 %size to i64
  %p = call i8* @malloc(i64 %n)
  %tag = add i32 %size, 1000
  %f = getelementptr [4 x i8], [4 x i8]* @fmt, i32 0, i32 0
  call i32 (i8*, ...) @printf(i8* %f, i32 %tag)
  ret i8* %p
}

define void @deallocate(i8* %p) {
  %f = getelementptr [4 x i8], [4 x i8]* @fmt, i32 0, i32 0
  call i32 (i8*, ...) @printf(i8* %f, i32 -1000)
  call void @free(i8* %p)
  ret void
}

declare { i8*, i32 } @prototype(i8*, i1 zeroext)

define { i8*, i32 } @values(i8* %buffer, i32 %n) {
entry:
  %id = call token @llvm.coro.id.retcon(i32 16, i32 8, i8* %buffer, i8* bitcast ({ i8*, i32 } (i8*, i1)* @prototype to i8*), i8* bitcast (i8* (i32)* @allocate to i8*), i8* bitcast (void (i8*)* @deallocate to i8*))
  %hdl = call i8* @llvm.coro.begin(token %id, i8* null)
  %bytes = mul i32 %n, 4
  %tok = call token @llvm.coro.alloca.alloc.i32(i32 %bytes, i32 4)
  %raw = call i8* @llvm.coro.alloca.get(token %tok)
  %mem = bitcast i8* %raw to i32*
  br label %fill

fill:
  %i = phi i32 [ 0, %entry ], [ %i1, %fill ]
  %slot = getelementptr inbounds i32, i32* %mem, i32 %i
  store i32 %i, i32* %slot, align 4
  %i1 = add i32 %i, 1
  %more = icmp slt i32 %i1, %n
  br i1 %more, label %fill, label %yield

yield:
  %j = phi i32 [ 0, %fill ], [ %j1, %next ]
  %at = getelementptr inbounds i32, i32* %mem, i32 %j
  %v = load i32, i32* %at, align 4
  %stop = call i1 (...) @llvm.coro.suspend.retcon.i1(i32 %v)
  br i1 %stop, label %cleanup, label %next

next:
  %j1 = add i32 %j, 1
  %again = icmp slt i32 %j1, %n
  br i1 %again, label %yield, label %scratch

scratch:
  call void @llvm.coro.alloca.free(token %tok)
  %tok2 = call token @llvm.coro.alloca.alloc.i32(i32 %bytes, i32 8)
  %tmp.raw = call i8* @llvm.coro.alloca.get(token %tok2)
  %tmp = bitcast i8* %tmp.raw to i32*
  store i32 %n, i32* %tmp, align 4
  %t = load i32, i32* %tmp, align 4
  %sum = mul i32 %t, 11
  call void @llvm.coro.alloca.free(token %tok2)
  %stop2 = call i1 (...) @llvm.coro.suspend.retcon.i1(i32 %sum)
  br label %end

cleanup:
  call void @llvm.coro.alloca.free(token %tok)
  br label %end

end:
  %unused = call i1 @llvm.coro.end(i8* %hdl, i1 false)
  unreachable
}

define i32 @main() {
entry:
  %fmt = getelementptr [4 x i8], [4 x i8]* @fmt, i32 0, i32 0
  %b = alloca [16 x i8], align 8
  %buf = bitcast [16 x i8]* %b to i8*
  %p.raw = call i8* @llvm.coro.prepare.retcon(i8* bitcast ({ i8*, i32 } (i8*, i32)* @values to i8*))
  %p = bitcast i8* %p.raw to { i8*, i32 } (i8*, i32)*
  %r0 = call { i8*, i32 } %p(i8* %buf, i32 3)
  br label %drive

drive:
  %r = phi { i8*, i32 } [ %r0, %entry ], [ %rn, %body ]
  %k.raw = extractvalue { i8*, i32 } %r, 0
  %end = icmp eq i8* %k.raw, null
  br i1 %end, label %second, label %body

body:
  %k = bitcast i8* %k.raw to { i8*, i32 } (i8*, i1)*
  %v = extractvalue { i8*, i32 } %r, 1
  call i32 (i8*, ...) @printf(i8* %fmt, i32 %v)
  %rn = call { i8*, i32 } %k(i8* %buf, i1 zeroext false)
  br label %drive

second:
  %s0 = call { i8*, i32 } %p(i8* %buf, i32 5)
  %sk.raw = extractvalue { i8*, i32 } %s0, 0
  %sk = bitcast i8* %sk.raw to { i8*, i32 } (i8*, i1)*
  %sv = extractvalue { i8*, i32 } %s0, 1
  call i32 (i8*, ...) @printf(i8* %fmt, i32 %sv)
  %s1 = call { i8*, i32 } %sk(i8* %buf, i1 zeroext true)
  ret i32 0
}

declare token @llvm.coro.id.retcon(i32, i32, i8*, i8*, i8*, i8*)
declare i8* @llvm.coro.begin(token, i8*)
declare i1 @llvm.coro.suspend.retcon.i1(...)
declare i1 @llvm.coro.end(i8*, i1)
declare i8* @llvm.coro.prepare.retcon(i8*)
declare token @llvm.coro.alloca.alloc.i32(i32, i32)
declare i8* @llvm.coro.alloca.get(token)
declare void @llvm.coro.alloca.free(token)
