; Stresses: funclet-based (Windows) exception handling pads: catchswitch
; with several handlers and `unwind to caller`, catchpad with arguments,
; catchret, cleanuppad `within none` and nested within a catchpad,
; cleanupret `unwind to caller` and to a label, and calls carrying
; "funclet" operand bundles.

@"??_R0H@8" = external global ptr

declare i32 @__CxxFrameHandler3(...)
declare void @may_throw()
declare void @release(i32)

define void @f() personality ptr @__CxxFrameHandler3 {
entry:
  invoke void @may_throw()
          to label %next unwind label %dispatch

next:
  invoke void @may_throw()
          to label %exit unwind label %cleanup

dispatch:
  %cs = catchswitch within none [label %handler.int, label %handler.all] unwind to caller

handler.int:
  %cp = catchpad within %cs [ptr @"??_R0H@8", i32 0, ptr null]
  invoke void @may_throw() [ "funclet"(token %cp) ]
          to label %handled unwind label %inner.cleanup

handled:
  catchret from %cp to label %exit

inner.cleanup:
  %icp = cleanuppad within %cp []
  call void @release(i32 1) [ "funclet"(token %icp) ]
  cleanupret from %icp unwind to caller

handler.all:
  %cp.all = catchpad within %cs [ptr null, i32 64, ptr null]
  catchret from %cp.all to label %exit

cleanup:
  %pad = cleanuppad within none []
  call void @release(i32 2) [ "funclet"(token %pad) ]
  cleanupret from %pad unwind label %dispatch2

dispatch2:
  %cs2 = catchswitch within none [label %h2] unwind to caller

h2:
  %cp2 = catchpad within %cs2 [ptr null, i32 64, ptr null]
  catchret from %cp2 to label %exit

exit:
  ret void
}
