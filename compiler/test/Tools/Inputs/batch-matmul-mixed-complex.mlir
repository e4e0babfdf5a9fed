// Complex operands into a real result: MLIR 22 segfaults parsing this too.
func.func @f(%a: tensor<2x3x4xcomplex<f32>>, %b: tensor<2x4x5xcomplex<f32>>, %c: tensor<2x3x5xf32>) -> tensor<2x3x5xf32> {
  %0 = linalg.batch_matmul ins(%a, %b : tensor<2x3x4xcomplex<f32>>, tensor<2x4x5xcomplex<f32>>) outs(%c : tensor<2x3x5xf32>) -> tensor<2x3x5xf32>
  return %0 : tensor<2x3x5xf32>
}
