// async.execute with token dependencies: a diamond (t0 -> t1, t2 -> t3) and two independent tasks.
// Every task writes its own slot of %mem; main prints the slots after awaiting every token.
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
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %forty = arith.constant 40 : i64
  %two = arith.constant 2 : i64
  %mem = memref.alloc() : memref<6xi64>
  %t0 = async.execute {
    memref.store %forty, %mem[%c0] : memref<6xi64>
    async.yield
  }
  %t1 = async.execute [%t0] {
    %a = memref.load %mem[%c0] : memref<6xi64>
    %s = arith.addi %a, %two : i64
    memref.store %s, %mem[%c1] : memref<6xi64>
    async.yield
  }
  %t2 = async.execute [%t0] {
    %a = memref.load %mem[%c0] : memref<6xi64>
    %s = arith.muli %a, %two : i64
    memref.store %s, %mem[%c2] : memref<6xi64>
    async.yield
  }
  %t3 = async.execute [%t1, %t2] {
    %a = memref.load %mem[%c1] : memref<6xi64>
    %b = memref.load %mem[%c2] : memref<6xi64>
    %s = arith.addi %a, %b : i64
    memref.store %s, %mem[%c3] : memref<6xi64>
    async.yield
  }
  %t4 = async.execute {
    %v = arith.constant -5 : i64
    memref.store %v, %mem[%c4] : memref<6xi64>
    async.yield
  }
  %t5 = async.execute {
    %v = arith.constant 1000000007 : i64
    memref.store %v, %mem[%c5] : memref<6xi64>
    async.yield
  }
  async.await %t3 : !async.token
  async.await %t4 : !async.token
  async.await %t5 : !async.token
  scf.for %i = %c0 to %c5 step %c1 {
    %x = memref.load %mem[%i] : memref<6xi64>
    func.call @print(%x) : (i64) -> ()
  }
  %x = memref.load %mem[%c5] : memref<6xi64>
  func.call @print(%x) : (i64) -> ()
  memref.dealloc %mem : memref<6xi64>
  %ok = arith.constant 0 : i32
  return %ok : i32
}
