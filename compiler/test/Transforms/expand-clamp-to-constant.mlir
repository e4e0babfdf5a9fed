// RUN: mips-opt %s --mips-expand-clamp-to-constant | FileCheck %s

// A maximum or minimum with a constant that is not NaN (either side, scalar or
// splat): a NaN-ignoring one, and the operand itself where it is NaN.
// CHECK-LABEL: func.func @relu
// CHECK:         %[[M:.*]] = arith.maxnumf %arg0, %{{.*}} : f32
// CHECK:         %[[NAN:.*]] = arith.cmpf uno, %arg0, %arg0 : f32
// CHECK:         %[[R:.*]] = arith.select %[[NAN]], %arg0, %[[M]] : f32
// CHECK:         %[[VM:.*]] = arith.minnumf %arg1, %{{.*}} : vector<[4]xf32>
// CHECK:         %[[VNAN:.*]] = arith.cmpf uno, %arg1, %arg1 : vector<[4]xf32>
// CHECK:         arith.select %[[VNAN]], %arg1, %[[VM]] : vector<[4]xi1>, vector<[4]xf32>
func.func @relu(%x: f32, %v: vector<[4]xf32>) -> (f32, vector<[4]xf32>) {
  %zero = arith.constant 0.0 : f32
  %six = arith.constant dense<6.0> : vector<[4]xf32>
  %r = arith.maximumf %zero, %x : f32
  %c = arith.minimumf %v, %six : vector<[4]xf32>
  return %r, %c : f32, vector<[4]xf32>
}

// Left alone: two variables, a NaN constant (the result is always NaN).
// CHECK-LABEL: func.func @left_alone
// CHECK:         arith.maximumf %arg0, %arg1 : f32
// CHECK:         arith.maximumf %arg0, %{{.*}} : f32
// CHECK-NOT:     arith.select
func.func @left_alone(%x: f32, %y: f32) -> (f32, f32) {
  %nan = arith.constant 0x7FC00000 : f32
  %a = arith.maximumf %x, %y : f32
  %b = arith.maximumf %x, %nan : f32
  return %a, %b : f32, f32
}
