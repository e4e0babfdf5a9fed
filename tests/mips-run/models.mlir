// Functions for mips-run's tests: an exact int8 product, a result large enough to be
// elided when printed, a scalar result and a 1-D one.
func.func @matmul_i8(%a: tensor<3x5xi8>, %b: tensor<5x2xi8>) -> tensor<3x2xi32> {
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<3x2xi32>
  %z = linalg.fill ins(%zero : i32) outs(%e : tensor<3x2xi32>) -> tensor<3x2xi32>
  %c = linalg.matmul ins(%a, %b : tensor<3x5xi8>, tensor<5x2xi8>) outs(%z : tensor<3x2xi32>) -> tensor<3x2xi32>
  return %c : tensor<3x2xi32>
}

func.func @square(%a: tensor<40x40xf32>) -> tensor<40x40xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<40x40xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<40x40xf32>) -> tensor<40x40xf32>
  %c = linalg.matmul ins(%a, %a : tensor<40x40xf32>, tensor<40x40xf32>) outs(%z : tensor<40x40xf32>) -> tensor<40x40xf32>
  return %c : tensor<40x40xf32>
}

func.func @scale(%x: f32, %y: f32) -> f32 {
  %p = arith.mulf %x, %y : f32
  return %p : f32
}

func.func @row_sums(%a: tensor<?x4xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %n = tensor.dim %a, %c0 : tensor<?x4xf32>
  %e = tensor.empty(%n) : tensor<?xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  %s = linalg.reduce ins(%a : tensor<?x4xf32>) outs(%z : tensor<?xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %t = arith.addf %in, %acc : f32
      linalg.yield %t : f32
    }
  return %s : tensor<?xf32>
}

// A memref argument is lowered with its declared (row-major) layout, whatever strides
// the descriptor carries: a Fortran-ordered .npy must arrive row-major.
func.func @pick(%a: memref<2x3xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %v = memref.load %a[%c1, %c0] : memref<2x3xf32>
  return %v : f32
}
