// MLIR 22 segfaults parsing this: the region builder reports through an empty callback.
func.func @f(%a: tensor<2x3x4xindex>, %b: tensor<2x4x5xindex>, %c: tensor<2x3x5xindex>) -> tensor<2x3x5xindex> {
  %0 = linalg.batch_matmul ins(%a, %b : tensor<2x3x4xindex>, tensor<2x4x5xindex>) outs(%c : tensor<2x3x5xindex>) -> tensor<2x3x5xindex>
  return %0 : tensor<2x3x5xindex>
}
