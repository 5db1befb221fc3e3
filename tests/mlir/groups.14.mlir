// llcoro-mlir: entry-coroutine
// MLIR 14 version of groups.mlir (MLIR 14 spells func.func as func and has no func.call). The
// entry point is @entry, which MLIR 14 turns into a coroutine returning a token
// (-async-to-async-runtime=eliminate-blocking-await-ops: its awaits become suspend points);
// support/main14.c calls it and waits for the token.
// Async groups: tasks added to a group in a loop, each writing its own slot; one task awaits the
// whole group (async.await_all in a coroutine: a suspend point) and sums the slots; entry awaits a
// second group, whose members depend on that task.
func private @printI64(i64)
func private @printNewline()

func @print(%x: i64) {
  call @printI64(%x) : (i64) -> ()
  call @printNewline() : () -> ()
  return
}

// Starts one task per slot of %mem, each adding its token to %g. (MLIR 14 cannot lower
// async.execute inside scf.for in a function that eliminate-blocking-await-ops makes a coroutine;
// this one awaits nothing.)
func @spawn(%mem: memref<8xi64>, %g: !async.group) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c8 step %c1 {
    %t = async.execute {
      %ii = arith.index_cast %i : index to i64
      %one = arith.constant 1 : i64
      %n = arith.addi %ii, %one : i64
      %cube = arith.muli %n, %n : i64
      %c = arith.muli %cube, %n : i64
      memref.store %c, %mem[%i] : memref<8xi64>
      async.yield
    }
    %idx = async.add_to_group %t, %g : !async.token
  }
  return
}

func @entry() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0 : i64
  %mem = memref.alloc() : memref<8xi64>
  %res = memref.alloc() : memref<3xi64>
  %g = async.create_group %c8 : !async.group
  call @spawn(%mem, %g) : (memref<8xi64>, !async.group) -> ()
  %ts = async.execute {
    async.await_all %g
    %s = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %zero) -> (i64) {
      %x = memref.load %mem[%i] : memref<8xi64>
      %n = arith.addi %acc, %x : i64
      scf.yield %n : i64
    }
    memref.store %s, %res[%c0] : memref<3xi64>
    async.yield
  }
  %g2 = async.create_group %c2 : !async.group
  %ta = async.execute [%ts] {
    %s = memref.load %res[%c0] : memref<3xi64>
    %two = arith.constant 2 : i64
    %d = arith.muli %s, %two : i64
    memref.store %d, %res[%c1] : memref<3xi64>
    async.yield
  }
  %tb = async.execute [%ts] {
    %s = memref.load %res[%c0] : memref<3xi64>
    %x = memref.load %mem[%c0] : memref<8xi64>
    %d = arith.subi %s, %x : i64
    memref.store %d, %res[%c2] : memref<3xi64>
    async.yield
  }
  %ia = async.add_to_group %ta, %g2 : !async.token
  %ib = async.add_to_group %tb, %g2 : !async.token
  async.await_all %g2
  scf.for %i = %c0 to %c8 step %c1 {
    %x = memref.load %mem[%i] : memref<8xi64>
    call @print(%x) : (i64) -> ()
  }
  %s0 = memref.load %res[%c0] : memref<3xi64>
  %s1 = memref.load %res[%c1] : memref<3xi64>
  %s2 = memref.load %res[%c2] : memref<3xi64>
  call @print(%s0) : (i64) -> ()
  call @print(%s1) : (i64) -> ()
  call @print(%s2) : (i64) -> ()
  memref.dealloc %mem : memref<8xi64>
  memref.dealloc %res : memref<3xi64>
  return
}
