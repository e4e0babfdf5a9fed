// mips-compile --mips-remarks prints the remarks of the whole pipeline, from TOSA
// input too; without the flag it prints none.
// RUN: mips-compile %s --mips-remarks -o %t.o 2>&1 | FileCheck %s
// RUN: mips-compile %s -o %t.o 2>&1 | FileCheck %s --check-prefix=QUIET --allow-empty
// CHECK: remarks.mlir:[[@LINE+5]]:8: remark: matmul 1x32x64 (MxNxK) f32 x f32 -> f32 reaches libmips
// CHECK: remarks.mlir:[[@LINE+5]]:8: remark: math.atan on f32 is a libm call per element
// QUIET-NOT: remark
func.func @layer(%x: tensor<1x1x64xf32>, %w: tensor<1x64x32xf32>) -> tensor<1x1x32xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %y = tosa.matmul %x, %w, %zp, %zp : (tensor<1x1x64xf32>, tensor<1x64x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x32xf32>
  %a = math.atan %y : tensor<1x1x32xf32>
  return %a : tensor<1x1x32xf32>
}
