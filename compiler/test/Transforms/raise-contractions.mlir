// RUN: mips-opt %s --mips-raise-contractions | FileCheck %s

// The generic and contract forms of what libmips runs become named ops; the maps of a
// transposed operand stay on the named op; a vector product with its vector first
// becomes a matvec with the matrix first; what libmips cannot run stays generic.
// CHECK-LABEL: func.func @generic_matmul_bt
// CHECK:         linalg.matmul indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}] ins(%arg0, %arg1 : tensor<4x8xf32>, tensor<16x8xf32>)
// CHECK-NOT:     linalg.generic
// CHECK-LABEL: func.func @generic_matvec_vector_first
// CHECK:         linalg.matvec ins(%arg1, %arg0 : tensor<4x8xi8>, tensor<8xi8>) outs(%arg2 : tensor<4xi32>)
// CHECK-LABEL: func.func @generic_vecmat
// CHECK:         linalg.vecmat ins(%arg0, %arg1 : memref<8xf32>, memref<8x4xf32>) outs(%arg2 : memref<4xf32>)
// CHECK-LABEL: func.func @generic_f64_stays
// CHECK:         linalg.generic
// CHECK-LABEL: func.func @contract_matmul
// CHECK:         linalg.matmul ins(%arg0, %arg1 : tensor<4x8xf32>, tensor<8x16xf32>)
#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#nk = affine_map<(m, n, k) -> (n, k)>
#mn = affine_map<(m, n, k) -> (m, n)>
func.func @generic_matmul_bt(%a: tensor<4x8xf32>, %b: tensor<16x8xf32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %r = linalg.generic {indexing_maps = [#mk, #nk, #mn], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<4x8xf32>, tensor<16x8xf32>) outs(%c : tensor<4x16xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}
#ik = affine_map<(i, k) -> (i, k)>
#ki = affine_map<(i, k) -> (k, i)>
#k = affine_map<(i, k) -> (k)>
#i = affine_map<(i, k) -> (i)>
func.func @generic_matvec_vector_first(%x: tensor<8xi8>, %m: tensor<4x8xi8>, %y: tensor<4xi32>) -> tensor<4xi32> {
  %r = linalg.generic {indexing_maps = [#k, #ik, #i], iterator_types = ["parallel", "reduction"]}
      ins(%x, %m : tensor<8xi8>, tensor<4x8xi8>) outs(%y : tensor<4xi32>) {
  ^bb0(%p: i8, %q: i8, %acc: i32):
    %pe = arith.extsi %p : i8 to i32
    %qe = arith.extsi %q : i8 to i32
    %t = arith.muli %pe, %qe : i32
    %s = arith.addi %acc, %t : i32
    linalg.yield %s : i32
  } -> tensor<4xi32>
  return %r : tensor<4xi32>
}
func.func @generic_vecmat(%x: memref<8xf32>, %m: memref<8x4xf32>, %y: memref<4xf32>) {
  linalg.generic {indexing_maps = [#k, #ki, #i], iterator_types = ["parallel", "reduction"]}
      ins(%x, %m : memref<8xf32>, memref<8x4xf32>) outs(%y : memref<4xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %t = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %t : f32
    linalg.yield %s : f32
  }
  return
}
func.func @generic_f64_stays(%a: tensor<4x8xf64>, %b: tensor<8x16xf64>, %c: tensor<4x16xf64>) -> tensor<4x16xf64> {
  %r = linalg.generic {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<4x8xf64>, tensor<8x16xf64>) outs(%c : tensor<4x16xf64>) {
  ^bb0(%x: f64, %y: f64, %acc: f64):
    %p = arith.mulf %x, %y : f64
    %s = arith.addf %acc, %p : f64
    linalg.yield %s : f64
  } -> tensor<4x16xf64>
  return %r : tensor<4x16xf64>
}
func.func @contract_matmul(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %r = linalg.contract indexing_maps = [#mk, #kn, #mn]
      ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}
