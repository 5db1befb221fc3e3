// not on MLIR 14 as written: loops.14.mlir has the same loops in a function that MLIR 14 turns into
// a coroutine (eliminate-blocking-await-ops), as MLIR 14 has no async.func.
// async.await inside loops: the async lowering of MLIR 19/22 supports awaits in control flow only
// as a CFG (not inside scf.for), so the loops are written with cf branches in async.funcs. Each
// iteration starts a task and awaits it (one suspend point executed many times, with the loop
// counter and the running sum live across it); the second loop awaits a token, then reads the slot
// the awaited task wrote.
func.func private @printI64(i64)
func.func private @printNewline()

func.func @print(%x: i64) {
  func.call @printI64(%x) : (i64) -> ()
  func.call @printNewline() : () -> ()
  return
}

// The sum of i*i for i below %n.
async.func @sum_squares(%n: i64) -> !async.value<i64> {
  %zero = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  cf.br ^head(%zero, %zero : i64, i64)
^head(%i: i64, %acc: i64):
  %more = arith.cmpi slt, %i, %n : i64
  cf.cond_br %more, ^body, ^done
^body:
  %ti, %vi = async.execute -> !async.value<i64> {
    %sq = arith.muli %i, %i : i64
    async.yield %sq : i64
  }
  %x = async.await %vi : !async.value<i64>
  %next = arith.addi %acc, %x : i64
  %i1 = arith.addi %i, %one : i64
  cf.br ^head(%i1, %next : i64, i64)
^done:
  return %acc : i64
}

// The sum of 3*i for i in 1..9, each product written to %mem[i] by a task of its own.
async.func @sum_triples(%mem: memref<10xi64>) -> !async.value<i64> {
  %zero = arith.constant 0 : i64
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  cf.br ^head(%c1, %zero : index, i64)
^head(%i: index, %acc: i64):
  %more = arith.cmpi slt, %i, %c10 : index
  cf.cond_br %more, ^body, ^done
^body:
  %ti = async.execute {
    %ii = arith.index_cast %i : index to i64
    %three = arith.constant 3 : i64
    %y = arith.muli %ii, %three : i64
    memref.store %y, %mem[%i] : memref<10xi64>
    async.yield
  }
  async.await %ti : !async.token
  %y = memref.load %mem[%i] : memref<10xi64>
  %next = arith.addi %acc, %y : i64
  %i1 = arith.addi %i, %c1 : index
  cf.br ^head(%i1, %next : index, i64)
^done:
  return %acc : i64
}

func.func @main() -> i32 {
  %ten = arith.constant 10 : i64
  %mem = memref.alloc() : memref<10xi64>
  %v = async.call @sum_squares(%ten) : (i64) -> !async.value<i64>
  %v2 = async.call @sum_triples(%mem) : (memref<10xi64>) -> !async.value<i64>
  %r = async.await %v : !async.value<i64>
  %r2 = async.await %v2 : !async.value<i64>
  func.call @print(%r) : (i64) -> ()
  func.call @print(%r2) : (i64) -> ()
  memref.dealloc %mem : memref<10xi64>
  %ok = arith.constant 0 : i32
  return %ok : i32
}
