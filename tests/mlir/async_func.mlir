// not on MLIR 14: async.func and async.call arrived in MLIR 16.
// async.func/async.call: coroutine functions returning !async.value and !async.token, awaiting
// other async.funcs (suspend points in an async.func), called from main and from a task; fib is
// recursive and awaits in one branch only. (loops.mlir has async.funcs with loops.)
func.func private @printI64(i64)
func.func private @printNewline()

func.func @print(%x: i64) {
  func.call @printI64(%x) : (i64) -> ()
  func.call @printNewline() : () -> ()
  return
}

// The product runs as a task of its own: MLIR's lowering of an async.func without any await leaves
// casts of the coroutine id behind, so every async.func here awaits something.
async.func @square(%x: i64) -> !async.value<i64> {
  %t, %v = async.execute -> !async.value<i64> {
    %p = arith.muli %x, %x : i64
    async.yield %p : i64
  }
  %y = async.await %v : !async.value<i64>
  return %y : i64
}

// fib(n), the two recursive calls running as coroutines of their own (a branch in CFG form: the
// async lowering does not support awaits inside scf.if in an async.func).
async.func @fib(%n: i64) -> !async.value<i64> {
  %two = arith.constant 2 : i64
  %one = arith.constant 1 : i64
  %small = arith.cmpi slt, %n, %two : i64
  cf.cond_br %small, ^base, ^recurse
^base:
  cf.br ^done(%n : i64)
^recurse:
  %a = arith.subi %n, %one : i64
  %b = arith.subi %n, %two : i64
  %va = async.call @fib(%a) : (i64) -> !async.value<i64>
  %vb = async.call @fib(%b) : (i64) -> !async.value<i64>
  %x = async.await %va : !async.value<i64>
  %y = async.await %vb : !async.value<i64>
  %s = arith.addi %x, %y : i64
  cf.br ^done(%s : i64)
^done(%r: i64):
  return %r : i64
}

// Stores square(%x) + 1 into %mem[%i]; returns a token only.
async.func @store_square(%mem: memref<2xi64>, %i: index, %x: i64) -> !async.token {
  %v = async.call @square(%x) : (i64) -> !async.value<i64>
  %y = async.await %v : !async.value<i64>
  %one = arith.constant 1 : i64
  %z = arith.addi %y, %one : i64
  memref.store %z, %mem[%i] : memref<2xi64>
  return
}

func.func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %nine = arith.constant 9 : i64
  %twelve = arith.constant 12 : i64
  %minus4 = arith.constant -4 : i64
  %mem = memref.alloc() : memref<2xi64>
  %vf = async.call @fib(%twelve) : (i64) -> !async.value<i64>
  %t = async.call @store_square(%mem, %c0, %minus4) : (memref<2xi64>, index, i64) -> !async.token
  %te = async.execute {
    %vq = async.call @square(%nine) : (i64) -> !async.value<i64>
    %q = async.await %vq : !async.value<i64>
    memref.store %q, %mem[%c1] : memref<2xi64>
    async.yield
  }
  %f = async.await %vf : !async.value<i64>
  async.await %t : !async.token
  async.await %te : !async.token
  func.call @print(%f) : (i64) -> ()
  %m0 = memref.load %mem[%c0] : memref<2xi64>
  %m1 = memref.load %mem[%c1] : memref<2xi64>
  func.call @print(%m0) : (i64) -> ()
  func.call @print(%m1) : (i64) -> ()
  memref.dealloc %mem : memref<2xi64>
  %ok = arith.constant 0 : i32
  return %ok : i32
}
