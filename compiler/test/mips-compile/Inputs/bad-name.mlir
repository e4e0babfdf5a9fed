func.func @"my-model.v2"(%a: f32) -> f32 {
  return %a : f32
}
