// async.await inside scf.if branches of a task: which value is awaited depends on data read at
// run time, and one branch awaits nothing. Four tasks take the four ways through the branches.
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
  %c4 = arith.constant 4 : index
  %in = memref.alloc() : memref<4xi64>
  %out = memref.alloc() : memref<4xi64>
  %a = arith.constant 5 : i64
  %b = arith.constant -2 : i64
  %z = arith.constant 0 : i64
  %big = arith.constant 100 : i64
  // Inputs 5, -2, 0, 100 select: positive and small, negative, zero, positive and large.
  memref.store %a, %in[%c0] : memref<4xi64>
  %c1i = arith.constant 1 : index
  memref.store %b, %in[%c1i] : memref<4xi64>
  %c2 = arith.constant 2 : index
  memref.store %z, %in[%c2] : memref<4xi64>
  %c3 = arith.constant 3 : index
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
  scf.for %i = %c0 to %c4 step %c1 {
    %t = async.execute {
      %x = memref.load %in[%i] : memref<4xi64>
      %pos = arith.cmpi sgt, %x, %z : i64
      %r = scf.if %pos -> (i64) {
        %large = arith.cmpi sge, %x, %big : i64
        %s = scf.if %large -> (i64) {
          %w = async.await %vp : !async.value<i64>
          %y = arith.addi %w, %x : i64
          scf.yield %y : i64
        } else {
          %y = arith.muli %x, %x : i64
          scf.yield %y : i64
        }
        scf.yield %s : i64
      } else {
        %neg = arith.cmpi slt, %x, %z : i64
        %s = scf.if %neg -> (i64) {
          %w = async.await %vn : !async.value<i64>
          %y = arith.muli %w, %x : i64
          scf.yield %y : i64
        } else {
          async.await %tp : !async.token
          scf.yield %big : i64
        }
        scf.yield %s : i64
      }
      memref.store %r, %out[%i] : memref<4xi64>
      async.yield
    }
    %idx = async.add_to_group %t, %g : !async.token
  }
  async.await_all %g
  scf.for %i = %c0 to %c4 step %c1 {
    %x = memref.load %out[%i] : memref<4xi64>
    func.call @print(%x) : (i64) -> ()
  }
  memref.dealloc %in : memref<4xi64>
  memref.dealloc %out : memref<4xi64>
  %ok = arith.constant 0 : i32
  return %ok : i32
}
