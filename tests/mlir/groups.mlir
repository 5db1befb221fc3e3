// Async groups: tasks added to a group in a loop, each writing its own slot; one task awaits the
// whole group (async.await_all in a coroutine: a suspend point) and sums the slots; main awaits a
// second group blocking, whose members depend on that task.
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
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0 : i64
  %mem = memref.alloc() : memref<8xi64>
  %res = memref.alloc() : memref<3xi64>
  %g = async.create_group %c8 : !async.group
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
    func.call @print(%x) : (i64) -> ()
  }
  %s0 = memref.load %res[%c0] : memref<3xi64>
  %s1 = memref.load %res[%c1] : memref<3xi64>
  %s2 = memref.load %res[%c2] : memref<3xi64>
  func.call @print(%s0) : (i64) -> ()
  func.call @print(%s1) : (i64) -> ()
  func.call @print(%s2) : (i64) -> ()
  memref.dealloc %mem : memref<8xi64>
  memref.dealloc %res : memref<3xi64>
  %ok = arith.constant 0 : i32
  return %ok : i32
}
