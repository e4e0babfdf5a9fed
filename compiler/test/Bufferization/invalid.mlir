// RUN: mips-opt %s --one-shot-bufferize="bufferize-function-boundaries" -verify-diagnostics

// A user declaration with another signature is an error, not a mismatched call.
func.func private @mips_matmul_f32(i64) -> i32

func.func @clashing_declaration(%a: tensor<2x2xf32>, %b: tensor<2x2xf32>, %c: tensor<2x2xf32>) -> tensor<2x2xf32> {
  // expected-error @+2 {{'mips_matmul_f32' is already declared as '(i64) -> i32', which does not match the libmips ABI}}
  // expected-error @+1 {{failed to bufferize op}}
  %r = mips.matmul ins(%a, %b : tensor<2x2xf32>, tensor<2x2xf32>) outs(%c : tensor<2x2xf32>) -> tensor<2x2xf32>
  return %r : tensor<2x2xf32>
}
