; FINDING: error stackless-return 17:3
; MESSAGE: in @f, block %entry: this `frame.return` makes { ptr, i64 } from the frame pointer and i32
; frame.return builds {ptr, T} from the caller's frame pointer and a T: here the declared result
; is { ptr, i64 } and the value an i32, which llcoro would have stored into half the pair.

declare token @llvm.gc.frame.layout(ptr, i32, i32)
declare token @llvm.frame.layout(ptr, i32)
declare void @llvm.gc.frame.save(token, ...)
declare token @llvm.gc.frame.statepoint(...)
declare token @llvm.gc.frame.accessor(token)
declare ptr @llvm.frame.sp(token)
declare { ptr, i64 } @llvm.frame.return.i64(token, i32)

define { ptr, i64 } @f(ptr %sp_arg, i32 %x) {
entry:
  %rl = call token @llvm.frame.layout(ptr %sp_arg, i32 8)
  %r = call { ptr, i64 } @llvm.frame.return.i64(token %rl, i32 %x)
  ret { ptr, i64 } %r
}
