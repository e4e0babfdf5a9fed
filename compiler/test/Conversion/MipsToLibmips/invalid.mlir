// RUN: mips-opt %s -split-input-file --convert-mips-to-libmips -verify-diagnostics

// A user declaration with another signature is an error, not a mismatched call.
func.func private @mips_matmul_f32(i64) -> i32

func.func @clashing_declaration(%a: memref<2x2xf32>, %b: memref<2x2xf32>, %c: memref<2x2xf32>) {
  // expected-error @+1 {{'mips_matmul_f32' is already declared as '(i64) -> i32', which does not match the libmips ABI}}
  mips.matmul ins(%a, %b : memref<2x2xf32>, memref<2x2xf32>) outs(%c : memref<2x2xf32>)
  return
}

// -----

// Only buffers have an address to pass.
func.func @on_tensors(%a: tensor<2x2xf32>, %b: tensor<2x2xf32>, %c: tensor<2x2xf32>) -> tensor<2x2xf32> {
  // expected-error @+1 {{'mips.matmul' op on tensors cannot call libmips; bufferize it first}}
  %r = mips.matmul ins(%a, %b : tensor<2x2xf32>, tensor<2x2xf32>) outs(%c : tensor<2x2xf32>) -> tensor<2x2xf32>
  return %r : tensor<2x2xf32>
}

// -----

// So is a clash with a function the call needs besides the kernel.
func.func private @mips_status_string(i32) -> i32

func.func @clashing_status_string(%a: memref<2x2xf32>, %b: memref<2x2xf32>, %c: memref<2x2xf32>) {
  // expected-error @+1 {{'mips_status_string' is already declared as '(i32) -> i32', which does not match the libmips ABI '(i32) -> !llvm.ptr'}}
  mips.matmul ins(%a, %b : memref<2x2xf32>, memref<2x2xf32>) outs(%c : memref<2x2xf32>)
  return
}

// -----

// Or with a symbol of another kind under an ABI function's name.
llvm.func @mips_status_string(i32) -> !llvm.ptr

func.func @clashing_llvm_function(%a: memref<2x2xf32>, %b: memref<2x2xf32>, %c: memref<2x2xf32>) {
  // expected-error @+1 {{'mips_status_string' is already defined by 'llvm.func', which does not match the libmips ABI '(i32) -> !llvm.ptr'}}
  mips.matmul ins(%a, %b : memref<2x2xf32>, memref<2x2xf32>) outs(%c : memref<2x2xf32>)
  return
}

// -----

// Inline code is convert-mips-to-vector's: an inlined matmul left over is an error.
func.func @inlined_left_over(%a: memref<2x3xf32>, %b: memref<3x4xf32>, %c: memref<2x4xf32>) {
  // expected-error @+1 {{is marked inlined: convert-mips-to-vector writes it as vector code}}
  mips.matmul inlined ins(%a, %b : memref<2x3xf32>, memref<3x4xf32>) outs(%c : memref<2x4xf32>)
  return
}
