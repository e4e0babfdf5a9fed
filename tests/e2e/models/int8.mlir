// int8 x int8 -> int32.
func.func @qmatmul(%a: tensor<?x?xi8>, %b: tensor<?x?xi8>) -> tensor<?x?xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i32
  %m = tensor.dim %a, %c0 : tensor<?x?xi8>
  %n = tensor.dim %b, %c1 : tensor<?x?xi8>
  %e = tensor.empty(%m, %n) : tensor<?x?xi32>
  %f = linalg.fill ins(%zero : i32) outs(%e : tensor<?x?xi32>) -> tensor<?x?xi32>
  %r = linalg.matmul ins(%a, %b : tensor<?x?xi8>, tensor<?x?xi8>) outs(%f : tensor<?x?xi32>) -> tensor<?x?xi32>
  return %r : tensor<?x?xi32>
}

func.func @qmatmul_accumulate(%a: tensor<6x300xi8>, %b: tensor<300x5xi8>, %c: tensor<6x5xi32>) -> tensor<6x5xi32> {
  %r = linalg.matmul ins(%a, %b : tensor<6x300xi8>, tensor<300x5xi8>) outs(%c : tensor<6x5xi32>) -> tensor<6x5xi32>
  return %r : tensor<6x5xi32>
}
