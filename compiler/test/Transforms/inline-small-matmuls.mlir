// RUN: mips-opt %s -split-input-file --mips-inline-small-matmuls | FileCheck %s --check-prefixes=CHECK,DEFAULT
// RUN: mips-opt %s -split-input-file --mips-inline-small-matmuls=threshold=0 | FileCheck %s --check-prefixes=CHECK,NEVER
// RUN: mips-opt %s -split-input-file --mips-inline-small-matmuls=threshold=100000 | FileCheck %s --check-prefixes=CHECK,ALWAYS

// 4x4x4 = 64 multiply-adds: inline by default, a vector contraction on the
// operands as read; threshold=0 keeps the call.
// CHECK-LABEL:   func.func @tiny
// DEFAULT-NOT:     mips.matmul
// DEFAULT:         %[[A:.*]] = vector.transfer_read %{{.*}} : tensor<4x4xf32>, vector<4x4xf32>
// DEFAULT:         %[[B:.*]] = vector.transfer_read %{{.*}} : tensor<4x4xf32>, vector<4x4xf32>
// DEFAULT:         %[[C:.*]] = vector.transfer_read %{{.*}} : tensor<4x4xf32>, vector<4x4xf32>
// DEFAULT:         %[[R:.*]] = vector.contract {{.*}}%[[A]], %[[B]], %[[C]] : vector<4x4xf32>, vector<4x4xf32> into vector<4x4xf32>
// DEFAULT:         vector.transfer_write %[[R]]
// NEVER:           mips.matmul
// ALWAYS-NOT:      mips.matmul
func.func @tiny(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>, %c: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %r = mips.matmul ins(%a, %b : tensor<4x4xf32>, tensor<4x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}

// -----

// Transposes become the contraction's maps (operands read as stored);
// overwrite, a zero fill of the accumulator.
// DEFAULT-DAG:     #[[MAP_AT:.*]] = affine_map<(d0, d1, d2) -> (d2, d0)>
// DEFAULT-DAG:     #[[MAP_BT:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-LABEL:   func.func @tiny_transposed_overwrite
// DEFAULT-NOT:     mips.matmul
// DEFAULT:         %[[ZERO:.*]] = linalg.fill ins(%c0_i32 : i32)
// DEFAULT:         %[[C:.*]] = vector.transfer_read %[[ZERO]]
// DEFAULT:         vector.contract {indexing_maps = [#[[MAP_AT]], #[[MAP_BT]], #{{.*}}]{{.*}}, %[[C]] : vector<6x4xi8>, vector<5x6xi8> into vector<4x5xi32>
// NEVER:           mips.matmul transpose_lhs transpose_rhs overwrite
func.func @tiny_transposed_overwrite(%at: tensor<6x4xi8>, %bt: tensor<5x6xi8>, %c: tensor<4x5xi32>) -> tensor<4x5xi32> {
  %r = mips.matmul transpose_lhs transpose_rhs overwrite ins(%at, %bt : tensor<6x4xi8>, tensor<5x6xi8>) outs(%c : tensor<4x5xi32>) -> tensor<4x5xi32>
  return %r : tensor<4x5xi32>
}

// -----

// Above the threshold, dynamic, or on buffers: libmips.
// CHECK-LABEL:   func.func @not_inlined
// DEFAULT-COUNT-3: mips.matmul
// ALWAYS:          vector.contract
// ALWAYS-COUNT-2:  mips.matmul
func.func @not_inlined(%a: tensor<16x16xf32>, %b: tensor<16x16xf32>, %c: tensor<16x16xf32>,
                       %da: tensor<?x4xf32>, %db: tensor<4x4xf32>, %dc: tensor<?x4xf32>,
                       %ma: memref<4x4xf32>, %mb: memref<4x4xf32>, %mc: memref<4x4xf32>) -> (tensor<16x16xf32>, tensor<?x4xf32>) {
  %r = mips.matmul ins(%a, %b : tensor<16x16xf32>, tensor<16x16xf32>) outs(%c : tensor<16x16xf32>) -> tensor<16x16xf32>
  %d = mips.matmul ins(%da, %db : tensor<?x4xf32>, tensor<4x4xf32>) outs(%dc : tensor<?x4xf32>) -> tensor<?x4xf32>
  mips.matmul ins(%ma, %mb : memref<4x4xf32>, memref<4x4xf32>) outs(%mc : memref<4x4xf32>)
  return %r, %d : tensor<16x16xf32>, tensor<?x4xf32>
}

// -----

// Shapes the inline code runs badly at any size stay calls whatever the
// threshold: K > 16, or a B more than 4 times wider than A is tall.
// CHECK-LABEL:   func.func @never_inlined
// CHECK-NOT:       vector.contract
// CHECK:           mips.matmul ins(%{{.*}}, %{{.*}} : tensor<4x17xf32>, tensor<17x4xf32>)
// CHECK-NOT:       vector.contract
// CHECK:           mips.matmul ins(%{{.*}}, %{{.*}} : tensor<2x8xf32>, tensor<8x16xf32>)
// A tall A against a narrow B is fine.
// DEFAULT:         vector.contract {{.*}} : vector<8x8xf32>, vector<8x3xf32> into vector<8x3xf32>
// NEVER:           mips.matmul ins(%{{.*}}, %{{.*}} : tensor<8x8xf32>, tensor<8x3xf32>)
func.func @never_inlined(%a: tensor<4x17xf32>, %b: tensor<17x4xf32>, %c: tensor<4x4xf32>,
                         %a2: tensor<2x8xf32>, %b16: tensor<8x16xf32>, %c2: tensor<2x16xf32>,
                         %a8: tensor<8x8xf32>, %b3: tensor<8x3xf32>, %c8: tensor<8x3xf32>)
    -> (tensor<4x4xf32>, tensor<2x16xf32>, tensor<8x3xf32>) {
  %r = mips.matmul ins(%a, %b : tensor<4x17xf32>, tensor<17x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  %s = mips.matmul ins(%a2, %b16 : tensor<2x8xf32>, tensor<8x16xf32>) outs(%c2 : tensor<2x16xf32>) -> tensor<2x16xf32>
  %t = mips.matmul ins(%a8, %b3 : tensor<8x8xf32>, tensor<8x3xf32>) outs(%c8 : tensor<8x3xf32>) -> tensor<8x3xf32>
  return %r, %s, %t : tensor<4x4xf32>, tensor<2x16xf32>, tensor<8x3xf32>
}
