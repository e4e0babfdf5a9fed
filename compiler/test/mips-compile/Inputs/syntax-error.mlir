func.func @broken(%a: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %r = arith.constant 1.0 : f32
  12
}
