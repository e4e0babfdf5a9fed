// 1x1 convolutions whose input has more rows or columns than the output reads (the
// rest is never used): mips-compile viewed the whole input as the matmul's rows and
// was rejected by MLIR's verifier (difftest seed 21, cases 49, 343, 381).
// difftest-case: {"memrefs":false,"args":[{"elem":"f32","sizes":[1,6,1,4],"view":"padded","data":"exact","memref":false,"output":false},{"elem":"f32","sizes":[8,1,1,4],"view":"dense","data":"exact","memref":false,"output":false},{"elem":"i8","sizes":[1,2,9,17],"view":"offset","data":"int","memref":false,"output":false},{"elem":"i8","sizes":[5,2,1,1],"view":"dense","data":"int","memref":false,"output":false}],"result":{"elem":"f32","sizes":[1,5,1,8],"tolerance":[0,0]}}
func.func @pointwise_larger_input(%x: tensor<1x6x1x4xf32>, %w: tensor<8x1x1x4xf32>, %q: tensor<1x2x9x17xi8>, %qw: tensor<5x2x1x1xi8>) -> tensor<1x5x1x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x5x1x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x5x1x8xf32>) -> tensor<1x5x1x8xf32>
  %r = linalg.conv_2d_nhwc_fhwc {dilations = dense<[1, 2]> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x6x1x4xf32>, tensor<8x1x1x4xf32>) outs(%f : tensor<1x5x1x8xf32>) -> tensor<1x5x1x8xf32>
  // NCHW, int8: 9x17 input, 8x16 output.
  %izero = arith.constant 0 : i32
  %ie = tensor.empty() : tensor<1x5x8x16xi32>
  %if = linalg.fill ins(%izero : i32) outs(%ie : tensor<1x5x8x16xi32>) -> tensor<1x5x8x16xi32>
  %q2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%q, %qw : tensor<1x2x9x17xi8>, tensor<5x2x1x1xi8>) outs(%if : tensor<1x5x8x16xi32>) -> tensor<1x5x8x16xi32>
  // Fold the int8 result into the f32 one (exact: small integers).
  %s = tensor.extract_slice %q2[0, 0, 0, 0] [1, 5, 1, 8] [1, 1, 1, 1] : tensor<1x5x8x16xi32> to tensor<1x5x1x8xi32>
  %sf = arith.sitofp %s : tensor<1x5x1x8xi32> to tensor<1x5x1x8xf32>
  %e2 = tensor.empty() : tensor<1x5x1x8xf32>
  %sum = linalg.add ins(%r, %sf : tensor<1x5x1x8xf32>, tensor<1x5x1x8xf32>) outs(%e2 : tensor<1x5x1x8xf32>) -> tensor<1x5x1x8xf32>
  return %sum : tensor<1x5x1x8xf32>
}
