// !async.value<T> of several types: produced by async.execute, passed to other tasks as value
// operands (awaited implicitly before the body runs), awaited inside a task (a suspend point) and
// in main (blocking).
func.func private @printI64(i64)
func.func private @printNewline()

func.func @print(%x: i64) {
  func.call @printI64(%x) : (i64) -> ()
  func.call @printNewline() : () -> ()
  return
}

func.func @main() -> i32 {
  %six = arith.constant 6 : i64
  %t1, %v1 = async.execute -> !async.value<i64> {
    %seven = arith.constant 7 : i64
    %x = arith.muli %six, %seven : i64
    async.yield %x : i64
  }
  %t2, %v2 = async.execute -> !async.value<f64> {
    %x = arith.constant 2.5 : f64
    async.yield %x : f64
  }
  %t3, %v3 = async.execute -> !async.value<i32> {
    %x = arith.constant -3 : i32
    async.yield %x : i32
  }
  // Value operands: the body sees the unwrapped i64 and f64.
  %t4, %v4 = async.execute (%v1 as %a: !async.value<i64>, %v2 as %b: !async.value<f64>) -> !async.value<i64> {
    %af = arith.sitofp %a : i64 to f64
    %p = arith.mulf %af, %b : f64
    %r = arith.fptosi %p : f64 to i64
    async.yield %r : i64
  }
  // Awaits inside the body, and two results.
  %t5, %v5a, %v5b = async.execute -> (!async.value<i64>, !async.value<i1>) {
    %c = async.await %v3 : !async.value<i32>
    %d = async.await %v4 : !async.value<i64>
    %ce = arith.extsi %c : i32 to i64
    %s = arith.addi %d, %ce : i64
    %z = arith.constant 0 : i64
    %neg = arith.cmpi slt, %ce, %z : i64
    async.yield %s, %neg : i64, i1
  }
  %r1 = async.await %v1 : !async.value<i64>
  %r4 = async.await %v4 : !async.value<i64>
  %r5 = async.await %v5a : !async.value<i64>
  %r6 = async.await %v5b : !async.value<i1>
  %r6e = arith.extui %r6 : i1 to i64
  func.call @print(%r1) : (i64) -> ()
  func.call @print(%r4) : (i64) -> ()
  func.call @print(%r5) : (i64) -> ()
  func.call @print(%r6e) : (i64) -> ()
  %ok = arith.constant 0 : i32
  return %ok : i32
}
