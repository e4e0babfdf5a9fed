func.func @two(%a: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  return %a, %a : tensor<2xf32>, tensor<2xf32>
}
