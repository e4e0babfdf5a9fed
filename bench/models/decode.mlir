// One decoding step of a layer whose weights are constants of the model: a token
// (1 x 1024) times W^T, W stored the PyTorch way (1024 x 1024, N x K). With
// --mips-pack-constant-weights, W is packed once (outside the counted call: the bench
// calls once before counting) and the call reads the packed panels.
#map_a = affine_map<(d0, d1, d2) -> (d0, d2)>
#map_bt = affine_map<(d0, d1, d2) -> (d1, d2)>
#map_c = affine_map<(d0, d1, d2) -> (d0, d1)>

func.func @decode(%x: tensor<1x1024xf32>) -> tensor<1x1024xf32> {
  %w = arith.constant dense<0.25> : tensor<1024x1024xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x1024xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x1024xf32>) -> tensor<1x1024xf32>
  %r = linalg.matmul indexing_maps = [#map_a, #map_bt, #map_c]
         ins(%x, %w : tensor<1x1024xf32>, tensor<1024x1024xf32>) outs(%f : tensor<1x1024xf32>) -> tensor<1x1024xf32>
  return %r : tensor<1x1024xf32>
}
