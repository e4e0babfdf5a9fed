// linalg.softmax, the named op (mips-decompose-aggregates), along the last and the
// first dimension; its exp is a polynomial on vectors.
func.func @softmax_rows(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %x, %c0 : tensor<?x?xf32>
  %n = tensor.dim %x, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%m, %n) : tensor<?x?xf32>
  %r = linalg.softmax dimension(1) ins(%x : tensor<?x?xf32>) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

func.func @softmax_columns(%x: tensor<37x5xf32>) -> tensor<37x5xf32> {
  %e = tensor.empty() : tensor<37x5xf32>
  %r = linalg.softmax dimension(0) ins(%x : tensor<37x5xf32>) outs(%e : tensor<37x5xf32>) -> tensor<37x5xf32>
  return %r : tensor<37x5xf32>
}
