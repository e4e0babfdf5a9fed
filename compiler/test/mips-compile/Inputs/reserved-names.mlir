func.func @memrefCopy(%a: tensor<2xf32>) -> tensor<2xf32> {
  return %a : tensor<2xf32>
}
