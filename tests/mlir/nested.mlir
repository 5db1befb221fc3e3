// Nested async.execute: an outer task starts two inner tasks and awaits them (suspend points in the
// outer coroutine), an inner task starts and awaits a third level. The outer task yields a value
// computed from the inner results; the inner results also land in slots of %mem.
func.func private @printI64(i64)
func.func private @printNewline()

func.func @print(%x: i64) {
  func.call @printI64(%x) : (i64) -> ()
  func.call @printNewline() : () -> ()
  return
}

func.func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %mem = memref.alloc() : memref<3xi64>
  %base = arith.constant 10 : i64
  %t, %v = async.execute -> !async.value<i64> {
    %ta = async.execute {
      %three = arith.constant 3 : i64
      %x = arith.muli %base, %three : i64
      memref.store %x, %mem[%c0] : memref<3xi64>
      async.yield
    }
    %tb, %vb = async.execute -> !async.value<i64> {
      %tc, %vc = async.execute -> !async.value<i64> {
        %five = arith.constant 5 : i64
        %y = arith.addi %base, %five : i64
        async.yield %y : i64
      }
      %y = async.await %vc : !async.value<i64>
      %sq = arith.muli %y, %y : i64
      memref.store %sq, %mem[%c1] : memref<3xi64>
      async.yield %sq : i64
    }
    async.await %ta : !async.token
    %b = async.await %vb : !async.value<i64>
    %a = memref.load %mem[%c0] : memref<3xi64>
    %sum = arith.addi %a, %b : i64
    memref.store %sum, %mem[%c2] : memref<3xi64>
    %neg = arith.subi %base, %sum : i64
    async.yield %neg : i64
  }
  %r = async.await %v : !async.value<i64>
  %x0 = memref.load %mem[%c0] : memref<3xi64>
  %x1 = memref.load %mem[%c1] : memref<3xi64>
  %x2 = memref.load %mem[%c2] : memref<3xi64>
  func.call @print(%x0) : (i64) -> ()
  func.call @print(%x1) : (i64) -> ()
  func.call @print(%x2) : (i64) -> ()
  func.call @print(%r) : (i64) -> ()
  memref.dealloc %mem : memref<3xi64>
  %ok = arith.constant 0 : i32
  return %ok : i32
}
