// RUN: mips-opt %s --mips-approximate-math=fused=false | FileCheck %s
// RUN: mips-opt %s --mips-approximate-math | FileCheck %s --check-prefix=FUSED

// For a CPU without fused multiply-add (the generic x86-64 one, where a math.fma is
// a libm call per element and keeps its loop scalar) the polynomials' steps are a
// multiply and an add; a math.fma the input wrote itself stays one.
// CHECK-LABEL: func.func @exp_and_own_fma
// CHECK-NOT:     math.exp
// CHECK-NOT:     math.fma
// CHECK:         %[[OWN:.*]] = math.fma %arg1, %arg1, %arg1 : vector<4xf32>
// CHECK-NOT:     math.fma
// CHECK:         return
// FUSED-LABEL: func.func @exp_and_own_fma
// FUSED-COUNT-2: math.fma {{.*}} : vector<4xf32>
func.func @exp_and_own_fma(%x: vector<4xf32>, %y: vector<4xf32>) -> (vector<4xf32>, vector<4xf32>) {
  %e = math.exp %x : vector<4xf32>
  %f = math.fma %y, %y, %y : vector<4xf32>
  return %e, %f : vector<4xf32>, vector<4xf32>
}
