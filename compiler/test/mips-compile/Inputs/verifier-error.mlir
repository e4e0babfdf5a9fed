func.func @bad(%a: tensor<4x8xf32>, %b: tensor<9x16xf32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %r = mips.matmul ins(%a, %b : tensor<4x8xf32>, tensor<9x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}
