// A small MLP, relu(x·w1 + b)·w2: 64 rows, 256 → 512 → 256.
#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (j)>
func.func @mlp(%x: tensor<64x256xf32>, %w1: tensor<256x512xf32>, %b: tensor<512xf32>, %w2: tensor<512x256xf32>) -> tensor<64x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<64x512xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<64x512xf32>) -> tensor<64x512xf32>
  %h = linalg.matmul ins(%x, %w1 : tensor<64x256xf32>, tensor<256x512xf32>) outs(%z1 : tensor<64x512xf32>) -> tensor<64x512xf32>
  %a = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]} ins(%h, %b : tensor<64x512xf32>, tensor<512xf32>) outs(%e1 : tensor<64x512xf32>) {
  ^bb0(%v: f32, %bias: f32, %o: f32):
    %s = arith.addf %v, %bias : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<64x512xf32>
  %e2 = tensor.empty() : tensor<64x256xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<64x256xf32>) -> tensor<64x256xf32>
  %y = linalg.matmul ins(%a, %w2 : tensor<64x512xf32>, tensor<512x256xf32>) outs(%z2 : tensor<64x256xf32>) -> tensor<64x256xf32>
  return %y : tensor<64x256xf32>
}
