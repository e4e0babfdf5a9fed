// RUN: mips-opt %s -split-input-file -verify-diagnostics

func.func @rank(%a: tensor<4xf32>, %b: tensor<4x4xf32>, %c: tensor<4x4xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{'mips.matmul' op expects rank-2 operands, got ranks 1, 2 and 2}}
  %r = mips.matmul ins(%a, %b : tensor<4xf32>, tensor<4x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}

// -----

func.func @element_types(%a: tensor<4x4xf16>, %b: tensor<4x4xf16>, %c: tensor<4x4xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{'mips.matmul' op expects element types f32 x f32 -> f32 or i8 x i8 -> i32, got 'f16' x 'f16' -> 'f32'}}
  %r = mips.matmul ins(%a, %b : tensor<4x4xf16>, tensor<4x4xf16>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}

// -----

func.func @int8_needs_int32(%a: tensor<4x4xi8>, %b: tensor<4x4xi8>, %c: tensor<4x4xi8>) -> tensor<4x4xi8> {
  // expected-error @+1 {{expects element types f32 x f32 -> f32 or i8 x i8 -> i32, got 'i8' x 'i8' -> 'i8'}}
  %r = mips.matmul ins(%a, %b : tensor<4x4xi8>, tensor<4x4xi8>) outs(%c : tensor<4x4xi8>) -> tensor<4x4xi8>
  return %r : tensor<4x4xi8>
}

// -----

func.func @reduction_mismatch(%a: tensor<4x8xf32>, %b: tensor<9x16xf32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
  // expected-error @+1 {{'mips.matmul' op has mismatched reduction sizes: lhs gives K = 8, rhs gives K = 9}}
  %r = mips.matmul ins(%a, %b : tensor<4x8xf32>, tensor<9x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// -----

// With transpose_lhs, lhs is KxM: here K = 4 against the rhs's 8.
func.func @transposed_reduction_mismatch(%at: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<8x16xf32>) -> tensor<8x16xf32> {
  // expected-error @+1 {{has mismatched reduction sizes: lhs gives K = 4, rhs gives K = 8}}
  %r = mips.matmul transpose_lhs ins(%at, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%c : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// -----

func.func @init_shape(%a: tensor<4x8xf32>, %b: tensor<8x?xf32>, %c: tensor<5x16xf32>) -> tensor<5x16xf32> {
  // expected-error @+1 {{'mips.matmul' op expects init of shape 4x?, got 5x16}}
  %r = mips.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x?xf32>) outs(%c : tensor<5x16xf32>) -> tensor<5x16xf32>
  return %r : tensor<5x16xf32>
}

// -----

func.func @result_type(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>) -> tensor<?x16xf32> {
  // expected-error @+1 {{'mips.matmul' op on tensors expects a result of the init type 'tensor<4x16xf32>'}}
  %r = mips.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<?x16xf32>
  return %r : tensor<?x16xf32>
}

// -----

func.func @memref_with_result(%a: memref<4x8xf32>, %b: memref<8x16xf32>, %c: memref<4x16xf32>) {
  // expected-error @+1 {{'mips.matmul' op result #0 must be ranked tensor of any type values, but got 'memref<4x16xf32>'}}
  %r = mips.matmul ins(%a, %b : memref<4x8xf32>, memref<8x16xf32>) outs(%c : memref<4x16xf32>) -> memref<4x16xf32>
  return
}

// -----

func.func @tensor_without_result(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>) {
  // expected-error @+1 {{'mips.matmul' op on tensors expects a result of the init type 'tensor<4x16xf32>'}}
  mips.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>)
  return
}

// -----

func.func @memref_result_of_tensors(%a: memref<4x8xf32>, %b: memref<8x16xf32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
  // expected-error @+1 {{'mips.matmul' op expects operands that are all tensors or all memrefs}}
  %r = mips.matmul ins(%a, %b : memref<4x8xf32>, memref<8x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// -----

func.func @memref_element_types(%a: memref<4x8xi8>, %b: memref<8x16xi8>, %c: memref<4x16xi16>) {
  // expected-error @+1 {{'mips.matmul' op expects element types f32 x f32 -> f32 or i8 x i8 -> i32, got 'i8' x 'i8' -> 'i16'}}
  mips.matmul ins(%a, %b : memref<4x8xi8>, memref<8x16xi8>) outs(%c : memref<4x16xi16>)
  return
}

// -----

func.func @inlined_dynamic(%a: tensor<?x8xf32>, %b: tensor<8x16xf32>, %c: tensor<?x16xf32>) -> tensor<?x16xf32> {
  // expected-error @+1 {{'mips.matmul' op with 'inlined' expects static shapes: inline code is unrolled}}
  %r = mips.matmul inlined ins(%a, %b : tensor<?x8xf32>, tensor<8x16xf32>) outs(%c : tensor<?x16xf32>) -> tensor<?x16xf32>
  return %r : tensor<?x16xf32>
}

// -----

func.func @inlined_empty(%a: tensor<4x3xf32>, %b: tensor<3x0xf32>, %c: tensor<4x0xf32>) -> tensor<4x0xf32> {
  // expected-error @+1 {{'mips.matmul' op with 'inlined' expects nonzero extents: inline code holds rows in vectors, and no vector has 0 elements}}
  %r = mips.matmul inlined ins(%a, %b : tensor<4x3xf32>, tensor<3x0xf32>) outs(%c : tensor<4x0xf32>) -> tensor<4x0xf32>
  return %r : tensor<4x0xf32>
}

// -----

func.func @memory_space(%a: memref<4x8xf32, 1>, %b: memref<8x16xf32>, %c: memref<4x16xf32>) {
  // expected-error @+1 {{'mips.matmul' op expects memrefs in the default memory space, as libmips takes plain pointers; got 'memref<4x8xf32, 1>'}}
  mips.matmul ins(%a, %b : memref<4x8xf32, 1>, memref<8x16xf32>) outs(%c : memref<4x16xf32>)
  return
}

// -----

func.func @batch_rank(%a: tensor<2x4x4xf32>, %b: tensor<2x4x4xf32>, %c: tensor<4x4xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{'mips.batch_matmul' op expects a rank-3 init and rank-3 (or shared rank-2) lhs and rhs, got ranks 3, 3 and 2}}
  %r = mips.batch_matmul ins(%a, %b : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}

// -----

func.func @batch_extent(%a: tensor<3x4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<2x4x16xf32>) -> tensor<2x4x16xf32> {
  // expected-error @+1 {{'mips.batch_matmul' op expects lhs with a batch of 2 (init's), got 3}}
  %r = mips.batch_matmul ins(%a, %b : tensor<3x4x8xf32>, tensor<8x16xf32>) outs(%c : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
  return %r : tensor<2x4x16xf32>
}

// -----

func.func @batch_reduction(%a: tensor<2x4x8xf32>, %bt: tensor<2x16x9xf32>, %c: tensor<2x4x16xf32>) -> tensor<2x4x16xf32> {
  // expected-error @+1 {{'mips.batch_matmul' op has mismatched reduction sizes: lhs gives K = 8, rhs gives K = 9}}
  %r = mips.batch_matmul transpose_rhs ins(%a, %bt : tensor<2x4x8xf32>, tensor<2x16x9xf32>) outs(%c : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
  return %r : tensor<2x4x16xf32>
}

// -----

func.func @batch_init_shape(%a: tensor<?x4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<?x4x15xf32>) -> tensor<?x4x15xf32> {
  // expected-error @+1 {{'mips.batch_matmul' op expects init of shape 4x16, got 4x15}}
  %r = mips.batch_matmul ins(%a, %b : tensor<?x4x8xf32>, tensor<8x16xf32>) outs(%c : tensor<?x4x15xf32>) -> tensor<?x4x15xf32>
  return %r : tensor<?x4x15xf32>
}

// -----

func.func @batch_memref_result(%a: memref<2x4x8xi8>, %b: memref<2x8x16xi8>, %c: memref<2x4x16xi32>) {
  // expected-error @+1 {{'mips.batch_matmul' op on memrefs writes into init and has no result}}
  %r = mips.batch_matmul ins(%a, %b : memref<2x4x8xi8>, memref<2x8x16xi8>) outs(%c : memref<2x4x16xi32>) -> tensor<2x4x16xi32>
  return
}

// -----

func.func @batch_element_types(%a: memref<2x4x8xi8>, %b: memref<8x16xi8>, %c: memref<2x4x16xf32>) {
  // expected-error @+1 {{'mips.batch_matmul' op expects element types f32 x f32 -> f32 or i8 x i8 -> i32, got 'i8' x 'i8' -> 'f32'}}
  mips.batch_matmul ins(%a, %b : memref<2x4x8xi8>, memref<8x16xi8>) outs(%c : memref<2x4x16xf32>)
  return
}
