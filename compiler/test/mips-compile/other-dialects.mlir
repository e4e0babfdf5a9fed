// RUN: mips-compile %s --static-embedding --emit=mlir -o - | FileCheck %s --implicit-check-not=math. --implicit-check-not=complex. --implicit-check-not=tosa. --implicit-check-not=vector. --implicit-check-not=unrealized_conversion_cast
// RUN: mips-compile %s --static-embedding --mips-precise-math --emit=mlir -o - | FileCheck %s --check-prefix=PRECISE
// RUN: mips-compile %s --static-embedding --mattr=+fma --emit=mlir -o - | FileCheck %s --check-prefix=FMA
// RUN: mips-compile %s --target=riscv64 -o /dev/null

// What a model holds around its matmuls lowers with them: math on vectors (erf as a
// polynomial; atan as LLVM's intrinsic, a libm call per element; erf the same way with
// --mips-precise-math), arith and math on whole tensors, complex arithmetic, and TOSA
// control flow. The polynomial's steps are fused multiply-adds where the CPU has them
// (--mattr=+fma, and every RISC-V core), a multiply and an add on the generic x86-64
// CPU, where a fused one would be a libm call per element.

// CHECK-LABEL: llvm.func @erf_vector(
// CHECK-NOT:     llvm.call @erff(
// CHECK-NOT:     llvm.intr.fma
// CHECK:         llvm.fmul {{.*}} : vector<4xf32>
// CHECK-NOT:     llvm.intr.fma
// CHECK:         llvm.intr.atan
// FMA-LABEL: llvm.func @erf_vector(
// FMA:         llvm.intr.fma({{.*}}) : (vector<4xf32>, vector<4xf32>, vector<4xf32>) -> vector<4xf32>
// PRECISE-LABEL: llvm.func @erf_vector(
// PRECISE-COUNT-4: llvm.call @erff(
func.func @erf_vector(%x: vector<4xf32>) -> (vector<4xf32>, vector<4xf32>) {
  %e = math.erf %x : vector<4xf32>
  %a = math.atan %x : vector<4xf32>
  return %e, %a : vector<4xf32>, vector<4xf32>
}

// CHECK-LABEL: llvm.func @elementwise_tensors(
// CHECK-NOT:     llvm.intr.exp
// CHECK:         llvm.fadd
// PRECISE-LABEL: llvm.func @elementwise_tensors(
// PRECISE:         llvm.intr.exp
func.func @elementwise_tensors(%x: tensor<8xf32>) -> tensor<8xf32> {
  %e = math.exp %x : tensor<8xf32>
  %a = arith.addf %e, %x : tensor<8xf32>
  return %a : tensor<8xf32>
}

// CHECK-LABEL: llvm.func @complex_abs_of_product(
// CHECK:         llvm.fmul
func.func @complex_abs_of_product(%a: complex<f32>, %b: complex<f32>) -> f32 {
  %c = complex.mul %a, %b : complex<f32>
  %r = complex.abs %c : complex<f32>
  return %r : f32
}

// CHECK-LABEL: llvm.func @tosa_cond_if(
// CHECK:         llvm.cond_br
func.func @tosa_cond_if(%c: tensor<i1>, %a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %r = tosa.cond_if %c (%x = %a, %y = %b) : tensor<i1> (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%x: tensor<4xf32>, %y: tensor<4xf32>):
    %s = tosa.add %x, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    tosa.yield %s : tensor<4xf32>
  } else {
  ^bb0(%x: tensor<4xf32>, %y: tensor<4xf32>):
    tosa.yield %y : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
