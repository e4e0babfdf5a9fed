func.func @f(%a: tensor<1x8x16xi8>, %b: tensor<1x16x32xi8>, %za: tensor<1xi8>, %zb: tensor<1xi8>) -> tensor<1x8x32xi32> {
  %r = tosa.matmul %a, %b, %za, %zb : (tensor<1x8x16xi8>, tensor<1x16x32xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x8x32xi32>
  return %r : tensor<1x8x32xi32>
}
