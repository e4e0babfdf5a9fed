#transposed = affine_map<(d0, d1) -> (d1, d0)>
func.func @f(%a: memref<8x16xf32, #transposed>, %b: memref<16x32xf32>, %c: memref<8x32xf32>) {
  linalg.matmul ins(%a, %b : memref<8x16xf32, #transposed>, memref<16x32xf32>) outs(%c : memref<8x32xf32>)
  return
}
