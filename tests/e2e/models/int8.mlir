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

// TOSA's quantized conv2d (zero points, padding with the input's zero point, stride 2
// down the rows, FHWC weights): an im2col copy, then the int8 product by libmips.
func.func @tosa_qconv(%x: tensor<1x7x7x8xi8>, %w: tensor<6x3x3x8xi8>, %bias: tensor<6xi32>) -> tensor<1x4x7x6xi32> {
  %izp = "tosa.const"() <{values = dense<-3> : tensor<1xi8>}> : () -> tensor<1xi8>
  %wzp = "tosa.const"() <{values = dense<5> : tensor<1xi8>}> : () -> tensor<1xi8>
  %r = tosa.conv2d %x, %w, %bias, %izp, %wzp {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 2, 1>} : (tensor<1x7x7x8xi8>, tensor<6x3x3x8xi8>, tensor<6xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x4x7x6xi32>
  return %r : tensor<1x4x7x6xi32>
}
