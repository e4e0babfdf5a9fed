// A two-layer perceptron, y = relu(x * w1 + b1) * w2 + b2, on tensors, in one function.
// Both matmuls become libmips calls; the bias adds and the ReLU are linalg.generic ops
// that the compiler lowers to loops. The batch size is dynamic.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>

func.func @mlp(%x: tensor<?x16xf32>, %w1: tensor<16x32xf32>, %b1: tensor<32xf32>,
               %w2: tensor<32x4xf32>, %b2: tensor<4xf32>) -> tensor<?x4xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %batch = tensor.dim %x, %c0 : tensor<?x16xf32>

  %e1 = tensor.empty(%batch) : tensor<?x32xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<?x32xf32>) -> tensor<?x32xf32>
  %h = linalg.matmul ins(%x, %w1 : tensor<?x16xf32>, tensor<16x32xf32>)
                     outs(%z1 : tensor<?x32xf32>) -> tensor<?x32xf32>
  %a = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%h, %b1 : tensor<?x32xf32>, tensor<32xf32>) outs(%e1 : tensor<?x32xf32>) {
    ^bb0(%v: f32, %bias: f32, %out: f32):
      %s = arith.addf %v, %bias : f32
      %r = arith.maximumf %s, %zero : f32
      linalg.yield %r : f32
  } -> tensor<?x32xf32>

  %e2 = tensor.empty(%batch) : tensor<?x4xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<?x4xf32>) -> tensor<?x4xf32>
  %o = linalg.matmul ins(%a, %w2 : tensor<?x32xf32>, tensor<32x4xf32>)
                     outs(%z2 : tensor<?x4xf32>) -> tensor<?x4xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%o, %b2 : tensor<?x4xf32>, tensor<4xf32>) outs(%e2 : tensor<?x4xf32>) {
    ^bb0(%v: f32, %bias: f32, %out: f32):
      %s = arith.addf %v, %bias : f32
      linalg.yield %s : f32
  } -> tensor<?x4xf32>
  return %y : tensor<?x4xf32>
}
