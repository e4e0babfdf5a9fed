// A label used once per region is fine, in sibling and in nested regions.
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
    outs(%a : tensor<4xf32>) {
  ^bb0(%x: f32):
    %s = scf.execute_region -> f32 {
      cf.br ^bb0
    ^bb0:
      scf.yield %x : f32
    }
    %t = scf.execute_region -> f32 {
      cf.br ^bb0
    ^bb0:
      scf.yield %s : f32
    }
    linalg.yield %t : f32
  } -> tensor<4xf32>
  // Strings and comments hold no labels: "{ ^bb0: }"
  %q = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
    outs(%r : tensor<4xf32>) {
  ^bb0(%x: f32):
  ^bb0(%y: f32):
    linalg.yield %y : f32
  } -> tensor<4xf32>
  return %q : tensor<4xf32>
}
