// vector and math ops around a libmips matmul, as upstream tests write them:
// vector.print prints through the runtime linked into the object. erf has no LLVM
// intrinsic: on a vector it becomes one libm call per element.
func.func @show(%a: tensor<32x64xf32>, %b: tensor<64x48xf32>) -> tensor<32x48xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x48xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<32x48xf32>) -> tensor<32x48xf32>
  %r = linalg.matmul ins(%a, %b : tensor<32x64xf32>, tensor<64x48xf32>) outs(%f : tensor<32x48xf32>) -> tensor<32x48xf32>
  %c0 = arith.constant 0 : index
  %c31 = arith.constant 31 : index
  %v = vector.transfer_read %r[%c31, %c0], %zero : tensor<32x48xf32>, vector<4xf32>
  vector.print %v : vector<4xf32>
  %erf = math.erf %v : vector<4xf32>
  %thousand = arith.constant dense<1000.0> : vector<4xf32>
  %scaled = arith.mulf %erf, %thousand : vector<4xf32>
  %permille = arith.fptosi %scaled : vector<4xf32> to vector<4xi32>
  vector.print %permille : vector<4xi32>
  %s = vector.reduction <add>, %v : vector<4xf32> into f32
  %t = math.tanh %s : f32
  vector.print %t : f32
  %i = arith.fptosi %s : f32 to i64
  vector.print %i : i64
  return %r : tensor<32x48xf32>
}

// arith and math on whole tensors: 2 * max(x, 0).
func.func @double_relu(%x: tensor<8xf32>) -> tensor<8xf32> {
  %a = math.absf %x : tensor<8xf32>
  %s = arith.addf %a, %x : tensor<8xf32>
  return %s : tensor<8xf32>
}
