func.func @f(%a: tensor<4x3xf32>, %b: tensor<3x0xf32>, %c: tensor<4x0xf32>) -> tensor<4x0xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<4x3xf32>, tensor<3x0xf32>) outs(%c : tensor<4x0xf32>) -> tensor<4x0xf32>
  return %r : tensor<4x0xf32>
}
