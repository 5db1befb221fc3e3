; Hand-written: coro.resume, coro.destroy and coro.done on a handle from inside funclets (a catch
; handler resumes, a cleanup destroys), as after inlining a handle's methods into a function with
; Windows EH. The indirect calls made in their place must carry the funclet's bundle, else the
; code generator turns them into `unreachable`.
target triple = "x86_64-pc-windows-msvc"

define void @drive(ptr %h) personality ptr @__CxxFrameHandler3 {
entry:
  invoke void @may_throw(i32 1)
          to label %ok unwind label %dispatch

ok:
  call void @llvm.coro.resume(ptr %h)
  ret void

dispatch:
  %cs = catchswitch within none [label %handler] unwind label %pad

handler:
  %cp = catchpad within %cs [ptr null, i32 64, ptr null]
  invoke void @llvm.coro.resume(ptr %h) [ "funclet"(token %cp) ]
          to label %resumed unwind label %pad

resumed:
  catchret from %cp to label %done

done:
  ret void

pad:
  %cl = cleanuppad within none []
  %d = call i1 @llvm.coro.done(ptr %h) [ "funclet"(token %cl) ]
  br i1 %d, label %out, label %kill

kill:
  call void @llvm.coro.destroy(ptr %h) [ "funclet"(token %cl) ]
  br label %out

out:
  cleanupret from %cl unwind to caller
}

declare void @may_throw(i32)
declare i32 @__CxxFrameHandler3(...)
declare void @llvm.coro.resume(ptr)
declare void @llvm.coro.destroy(ptr)
declare i1 @llvm.coro.done(ptr)
