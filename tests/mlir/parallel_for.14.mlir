// MLIR 14 version of parallel_for.mlir (MLIR 14 spells func.func as func, has no func.call, and
// scf.parallel ends in an implicit scf.yield). Built without eliminate-blocking-await-ops, which
// MLIR 14 cannot apply to the group awaits -async-parallel-for leaves inside scf.if: main stays a
// plain function and blocks on them.
// scf.parallel lowered by -async-parallel-for into tasks over blocks of iterations (dispatched
// recursively, awaited as a group): a 1-D loop writes f(i) to slot i, a 2-D loop fills a matrix
// from it. main prints a checksum of each after the loops, which wait for all their tasks.
func private @printI64(i64)
func private @printNewline()

func @print(%x: i64) {
  call @printI64(%x) : (i64) -> ()
  call @printNewline() : () -> ()
  return
}

func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c13 = arith.constant 13 : index
  %c1000 = arith.constant 1000 : index
  %zero = arith.constant 0 : i64
  %v = memref.alloc() : memref<1000xi64>
  %m = memref.alloc() : memref<13x13xi64>
  scf.parallel (%i) = (%c0) to (%c1000) step (%c1) {
    %ii = arith.index_cast %i : index to i64
    %sq = arith.muli %ii, %ii : i64
    %seven = arith.constant 7 : i64
    %r = arith.remsi %sq, %seven : i64
    %x = arith.addi %r, %ii : i64
    memref.store %x, %v[%i] : memref<1000xi64>
  }
  scf.parallel (%i, %j) = (%c0, %c0) to (%c13, %c13) step (%c1, %c1) {
    %a = memref.load %v[%i] : memref<1000xi64>
    %j3 = arith.muli %j, %c3 : index
    %b = memref.load %v[%j3] : memref<1000xi64>
    %p = arith.muli %a, %b : i64
    memref.store %p, %m[%i, %j] : memref<13x13xi64>
  }
  %s = scf.for %i = %c0 to %c1000 step %c1 iter_args(%acc = %zero) -> (i64) {
    %x = memref.load %v[%i] : memref<1000xi64>
    %n = arith.addi %acc, %x : i64
    scf.yield %n : i64
  }
  %s2 = scf.for %i = %c0 to %c13 step %c1 iter_args(%acc = %zero) -> (i64) {
    %row = scf.for %j = %c0 to %c13 step %c1 iter_args(%acc2 = %acc) -> (i64) {
      %x = memref.load %m[%i, %j] : memref<13x13xi64>
      %ii = arith.index_cast %i : index to i64
      %w = arith.addi %ii, %x : i64
      %n = arith.addi %acc2, %w : i64
      scf.yield %n : i64
    }
    scf.yield %row : i64
  }
  %x13 = memref.load %v[%c13] : memref<1000xi64>
  call @print(%s) : (i64) -> ()
  call @print(%x13) : (i64) -> ()
  call @print(%s2) : (i64) -> ()
  memref.dealloc %v : memref<1000xi64>
  memref.dealloc %m : memref<13x13xi64>
  %ok = arith.constant 0 : i32
  return %ok : i32
}
