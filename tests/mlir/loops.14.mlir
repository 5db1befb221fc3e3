// llcoro-mlir: entry-coroutine
// MLIR 14 version of loops.mlir: the loops are CFGs in plain functions, which MLIR 14 turns into
// coroutines because they await (-async-to-async-runtime=eliminate-blocking-await-ops), as it has
// no async.func. The entry point is @entry, a coroutine too; support/main14.c calls it and waits for
// its token.
func private @printI64(i64)
func private @printNewline()

func @print(%x: i64) {
  call @printI64(%x) : (i64) -> ()
  call @printNewline() : () -> ()
  return
}

// The sum of i*i for i below %n.
func @sum_squares(%n: i64) -> i64 {
  %zero = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  br ^head(%zero, %zero : i64, i64)
^head(%i: i64, %acc: i64):
  %more = arith.cmpi slt, %i, %n : i64
  cond_br %more, ^body, ^done
^body:
  %ti, %vi = async.execute -> !async.value<i64> {
    %sq = arith.muli %i, %i : i64
    async.yield %sq : i64
  }
  %x = async.await %vi : !async.value<i64>
  %next = arith.addi %acc, %x : i64
  %i1 = arith.addi %i, %one : i64
  br ^head(%i1, %next : i64, i64)
^done:
  return %acc : i64
}

// The sum of 3*i for i in 1..9, each product written to %mem[i] by a task of its own.
func @sum_triples(%mem: memref<10xi64>) -> i64 {
  %zero = arith.constant 0 : i64
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  br ^head(%c1, %zero : index, i64)
^head(%i: index, %acc: i64):
  %more = arith.cmpi slt, %i, %c10 : index
  cond_br %more, ^body, ^done
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
  br ^head(%i1, %next : index, i64)
^done:
  return %acc : i64
}

func @entry() {
  %ten = arith.constant 10 : i64
  %mem = memref.alloc() : memref<10xi64>
  %r = call @sum_squares(%ten) : (i64) -> i64
  %r2 = call @sum_triples(%mem) : (memref<10xi64>) -> i64
  call @print(%r) : (i64) -> ()
  call @print(%r2) : (i64) -> ()
  memref.dealloc %mem : memref<10xi64>
  return
}
