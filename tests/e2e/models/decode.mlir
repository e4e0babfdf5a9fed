// Decode-shaped products, compiled with --mips-any-order: one token (or a few) times
// weights stored the PyTorch way (N x K), and a matrix times a vector. libmips runs
// them as dot products; the object needs libmips ABI 1.2.
#map_a = affine_map<(d0, d1, d2) -> (d0, d2)>
#map_bt = affine_map<(d0, d1, d2) -> (d1, d2)>
#map_b = affine_map<(d0, d1, d2) -> (d2, d1)>
#map_c = affine_map<(d0, d1, d2) -> (d0, d1)>

// X (M x K) * W^T, W stored N x K.
func.func @tokens_times_weights(%x: tensor<?x?xf32>, %w: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %m = tensor.dim %x, %c0 : tensor<?x?xf32>
  %n = tensor.dim %w, %c0 : tensor<?x?xf32>
  %e = tensor.empty(%m, %n) : tensor<?x?xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  %r = linalg.matmul indexing_maps = [#map_a, #map_bt, #map_c]
         ins(%x, %w : tensor<?x?xf32>, tensor<?x?xf32>) outs(%f : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// Y += A (64 x 200) * v (200 x 1).
func.func @matrix_vector(%a: tensor<64x200xf32>, %v: tensor<200x1xf32>, %y: tensor<64x1xf32>) -> tensor<64x1xf32> {
  %r = linalg.matmul indexing_maps = [#map_a, #map_b, #map_c]
         ins(%a, %v : tensor<64x200xf32>, tensor<200x1xf32>) outs(%y : tensor<64x1xf32>) -> tensor<64x1xf32>
  return %r : tensor<64x1xf32>
}
