// A matvec whose vector is a collapsed argument (copied to be collapsed): mips-forward-argument-
// copies collapsed the argument in place and left the N = 1 view (expand_shape) of the
// copy with the copy's type; mips-compile rejected the program (difftest seed 2026, case 226).
// difftest-case: {"memrefs":false,"args":[{"elem":"f32","sizes":[33,48],"view":"padded","data":"exact","memref":false,"output":false},{"elem":"f32","sizes":[15],"view":"transposed","data":"exact","memref":false,"output":false},{"elem":"f32","sizes":[15,33],"view":"transposed","data":"exact","memref":false,"output":false},{"elem":"f32","sizes":[33],"view":"dense","data":"real","memref":false,"output":false},{"elem":"f32","sizes":[3,11],"view":"padded","data":"real","memref":false,"output":false}],"result":{"elem":"f32","sizes":[48],"tolerance":[0.0005507469177246094,0]}}
func.func @collapsed_argument_viewed_again(%arg0: tensor<33x?xf32>, %arg1: tensor<?xf32>, %arg2: tensor<?x?xf32>, %arg3: tensor<33xf32>, %arg4: tensor<3x11xf32>) -> tensor<48xf32> {
  %c2 = arith.constant 1 : index
  %d1 = tensor.dim %arg0, %c2 : tensor<33x?xf32>
  %e3 = tensor.empty(%d1) : tensor<?x33xf32>
  %t4 = linalg.transpose ins(%arg0 : tensor<33x?xf32>) outs(%e3 : tensor<?x33xf32>) permutation = [1, 0]
  %t5 = tensor.cast %arg3 : tensor<33xf32> to tensor<?xf32>
  %m6 = linalg.vecmat ins(%arg1, %arg2 : tensor<?xf32>, tensor<?x?xf32>) outs(%t5 : tensor<?xf32>) -> tensor<?xf32>
  %s7 = tensor.collapse_shape %arg4 [[0, 1]] : tensor<3x11xf32> into tensor<33xf32>
  %c10 = arith.constant 0 : index
  %d9 = tensor.dim %t4, %c10 : tensor<?x33xf32>
  %e11 = tensor.empty(%d9) : tensor<?xf32>
  %k12 = arith.constant 0.0 : f32
  %z13 = linalg.fill ins(%k12 : f32) outs(%e11 : tensor<?xf32>) -> tensor<?xf32>
  %m8 = linalg.matvec ins(%t4, %s7 : tensor<?x33xf32>, tensor<33xf32>) outs(%z13 : tensor<?xf32>) -> tensor<?xf32>
  %t14 = tensor.cast %m8 : tensor<?xf32> to tensor<48xf32>
  return %t14 : tensor<48xf32>
}
