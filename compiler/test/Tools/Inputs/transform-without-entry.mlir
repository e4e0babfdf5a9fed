// The transform interpreter reports a missing entry point at the implicit
// top-level module, which the parser places at line 0.
func.func @f(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  return %a : tensor<4x4xf32>
}

module attributes {transform.with_named_sequence} {
}
