// A batch matmul with a static K of 0 (and one with a dynamic batch and static K = 0):
// mips-compile sliced batch entries at offsets upstream's verifier calls out of bounds,
// and rejected the program (difftest seed 11, cases 165 and 171).
// difftest-case: {"memrefs":false,"args":[{"elem":"f32","sizes":[3,3,0],"view":"dense","data":"exact","memref":false,"output":false},{"elem":"f32","sizes":[3,0,17],"view":"padded","data":"exact","memref":false,"output":false},{"elem":"f32","sizes":[2,16,0],"view":"offset","data":"real","memref":false,"output":false}],"result":{"elem":"f32","sizes":[3,3,17],"tolerance":[0,0]}}
func.func @empty_batch_matmul(%arg0: tensor<3x3x0xf32>, %arg1: tensor<3x?x17xf32>, %arg2: tensor<?x16x0xf32>) -> tensor<3x3x17xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x3x17xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<3x3x17xf32>) -> tensor<3x3x17xf32>
  %m = linalg.batch_matmul ins(%arg0, %arg1 : tensor<3x3x0xf32>, tensor<3x?x17xf32>) outs(%z : tensor<3x3x17xf32>) -> tensor<3x3x17xf32>
  %c0 = arith.constant 0 : index
  %b = tensor.dim %arg2, %c0 : tensor<?x16x0xf32>
  %e2 = tensor.empty(%b) : tensor<?x16x16xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<?x16x16xf32>) -> tensor<?x16x16xf32>
  %m2 = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>] ins(%arg2, %arg2 : tensor<?x16x0xf32>, tensor<?x16x0xf32>) outs(%z2 : tensor<?x16x16xf32>) -> tensor<?x16x16xf32>
  %s = tensor.extract_slice %m2[0, 0, 0] [1, 3, 3] [1, 1, 1] : tensor<?x16x16xf32> to tensor<3x3xf32>
  %e3 = tensor.empty() : tensor<3x3x17xf32>
  %bc = linalg.broadcast ins(%s : tensor<3x3xf32>) outs(%e3 : tensor<3x3x17xf32>) dimensions = [2]
  %e4 = tensor.empty() : tensor<3x3x17xf32>
  %r = linalg.add ins(%m, %bc : tensor<3x3x17xf32>, tensor<3x3x17xf32>) outs(%e4 : tensor<3x3x17xf32>) -> tensor<3x3x17xf32>
  return %r : tensor<3x3x17xf32>
}
