func.func @f(%a: tensor<4x4xui8>, %b: tensor<4x4xui8>, %c: tensor<4x4xi32>) -> tensor<4x4xi32> {
  %r = linalg.matmul ins(%a, %b : tensor<4x4xui8>, tensor<4x4xui8>) outs(%c : tensor<4x4xi32>) -> tensor<4x4xi32>
  return %r : tensor<4x4xi32>
}
