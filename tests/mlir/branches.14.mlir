// llcoro-mlir: entry-coroutine
// MLIR 14 version of branches.mlir. MLIR 14 cannot lower an await inside scf.if in a task, so the
// branches are a CFG in @pick, which awaits in two of its branches and so becomes a coroutine
// (-async-to-async-runtime=eliminate-blocking-await-ops); each task calls it and awaits its result.
// The entry point is @entry, a coroutine too; support/main14.c calls it and waits for its token.
func private @printI64(i64)
func private @printNewline()

func @print(%x: i64) {
  call @printI64(%x) : (i64) -> ()
  call @printNewline() : () -> ()
  return
}

func @pick(%x: i64, %vp: !async.value<i64>, %vn: !async.value<i64>, %tp: !async.token) -> i64 {
  %z = arith.constant 0 : i64
  %big = arith.constant 100 : i64
  %pos = arith.cmpi sgt, %x, %z : i64
  cond_br %pos, ^positive, ^not_positive
^positive:
  %large = arith.cmpi sge, %x, %big : i64
  cond_br %large, ^large, ^small
^large:
  %w = async.await %vp : !async.value<i64>
  %y = arith.addi %w, %x : i64
  br ^done(%y : i64)
^small:
  %sq = arith.muli %x, %x : i64
  br ^done(%sq : i64)
^not_positive:
  %neg = arith.cmpi slt, %x, %z : i64
  cond_br %neg, ^negative, ^zero
^negative:
  %wn = async.await %vn : !async.value<i64>
  %yn = arith.muli %wn, %x : i64
  br ^done(%yn : i64)
^zero:
  async.await %tp : !async.token
  br ^done(%big : i64)
^done(%r: i64):
  return %r : i64
}

// Starts one task per input, each adding its token to %g. (MLIR 14 cannot lower async.execute inside
// scf.for in a function that eliminate-blocking-await-ops makes a coroutine; this one awaits nothing.)
func @spawn(%in: memref<4xi64>, %out: memref<4xi64>, %vp: !async.value<i64>, %vn: !async.value<i64>, %tp: !async.token, %g: !async.group) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %t = async.execute {
      %x = memref.load %in[%i] : memref<4xi64>
      %r = call @pick(%x, %vp, %vn, %tp) : (i64, !async.value<i64>, !async.value<i64>, !async.token) -> i64
      memref.store %r, %out[%i] : memref<4xi64>
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
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %in = memref.alloc() : memref<4xi64>
  %out = memref.alloc() : memref<4xi64>
  %a = arith.constant 5 : i64
  %b = arith.constant -2 : i64
  %z = arith.constant 0 : i64
  %big = arith.constant 100 : i64
  // Inputs 5, -2, 0, 100 select: positive and small, negative, zero, positive and large.
  memref.store %a, %in[%c0] : memref<4xi64>
  memref.store %b, %in[%c1] : memref<4xi64>
  memref.store %z, %in[%c2] : memref<4xi64>
  memref.store %big, %in[%c3] : memref<4xi64>
  %tp, %vp = async.execute -> !async.value<i64> {
    %x = arith.constant 1000 : i64
    async.yield %x : i64
  }
  %tn, %vn = async.execute -> !async.value<i64> {
    %x = arith.constant 7 : i64
    async.yield %x : i64
  }
  %g = async.create_group %c4 : !async.group
  call @spawn(%in, %out, %vp, %vn, %tp, %g) : (memref<4xi64>, memref<4xi64>, !async.value<i64>, !async.value<i64>, !async.token, !async.group) -> ()
  async.await_all %g
  scf.for %i = %c0 to %c4 step %c1 {
    %x = memref.load %out[%i] : memref<4xi64>
    call @print(%x) : (i64) -> ()
  }
  memref.dealloc %in : memref<4xi64>
  memref.dealloc %out : memref<4xi64>
  return
}
