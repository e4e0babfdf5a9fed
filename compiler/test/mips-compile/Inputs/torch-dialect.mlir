func.func @f(%a: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %0 = torch.aten.mm %a, %a : tensor<2x2xf32>, tensor<2x2xf32> -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}
