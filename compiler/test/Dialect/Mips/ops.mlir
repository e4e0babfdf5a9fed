// RUN: mips-opt %s | mips-opt | FileCheck %s
// RUN: mips-opt %s --mlir-print-op-generic | mips-opt | FileCheck %s

// CHECK-LABEL: func.func @static_f32
// CHECK-SAME:    %[[A:.*]]: tensor<4x8xf32>, %[[B:.*]]: tensor<8x16xf32>, %[[C:.*]]: tensor<4x16xf32>
// CHECK:         %[[R:.*]] = mips.matmul ins(%[[A]], %[[B]] : tensor<4x8xf32>, tensor<8x16xf32>) outs(%[[C]] : tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK:         return %[[R]]
func.func @static_f32(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %r = mips.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// CHECK-LABEL: func.func @dynamic_transposed_overwrite
// CHECK:         mips.matmul transpose_lhs transpose_rhs overwrite ins(%{{.*}}, %{{.*}} : tensor<?x?xf32>, tensor<?x?xf32>) outs(%{{.*}} : tensor<?x?xf32>) -> tensor<?x?xf32>
func.func @dynamic_transposed_overwrite(%at: tensor<?x?xf32>, %bt: tensor<?x?xf32>, %c: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %r = mips.matmul transpose_lhs transpose_rhs overwrite ins(%at, %bt : tensor<?x?xf32>, tensor<?x?xf32>) outs(%c : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// CHECK-LABEL: func.func @int8
// CHECK:         mips.matmul transpose_rhs ins(%{{.*}}, %{{.*}} : tensor<3x5xi8>, tensor<7x5xi8>) outs(%{{.*}} : tensor<3x7xi32>) -> tensor<3x7xi32>
func.func @int8(%a: tensor<3x5xi8>, %bt: tensor<7x5xi8>, %c: tensor<3x7xi32>) -> tensor<3x7xi32> {
  %r = mips.matmul transpose_rhs ins(%a, %bt : tensor<3x5xi8>, tensor<7x5xi8>) outs(%c : tensor<3x7xi32>) -> tensor<3x7xi32>
  return %r : tensor<3x7xi32>
}

// A static and a dynamic extent may meet.
// CHECK-LABEL: func.func @mixed_static_dynamic
// CHECK:         mips.matmul ins
func.func @mixed_static_dynamic(%a: tensor<?x8xf32>, %b: tensor<8x?xf32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %r = mips.matmul ins(%a, %b : tensor<?x8xf32>, tensor<8x?xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// The buffer form has no result and writes into init, through any strided view.
// CHECK-LABEL: func.func @on_memrefs
// CHECK:         mips.matmul transpose_rhs ins(%{{.*}}, %{{.*}} : memref<4x8xf32>, memref<16x8xf32, strided<[?, 1], offset: ?>>) outs(%{{.*}} : memref<4x16xf32>){{$}}
// CHECK:         mips.matmul overwrite ins(%{{.*}}, %{{.*}} : memref<?x?xi8>, memref<?x?xi8>) outs(%{{.*}} : memref<?x?xi32>){{$}}
func.func @on_memrefs(%a: memref<4x8xf32>, %bt: memref<16x8xf32, strided<[?, 1], offset: ?>>, %c: memref<4x16xf32>,
                      %qa: memref<?x?xi8>, %qb: memref<?x?xi8>, %qc: memref<?x?xi32>) {
  mips.matmul transpose_rhs ins(%a, %bt : memref<4x8xf32>, memref<16x8xf32, strided<[?, 1], offset: ?>>) outs(%c : memref<4x16xf32>)
  mips.matmul overwrite ins(%qa, %qb : memref<?x?xi8>, memref<?x?xi8>) outs(%qc : memref<?x?xi32>)
  return
}

// A batch: transposed Q * K^T on tensors, and weights every entry shares on memrefs.
// CHECK-LABEL: func.func @batch
// CHECK:         mips.batch_matmul transpose_rhs overwrite ins(%{{.*}}, %{{.*}} : tensor<4x64x32xf32>, tensor<4x64x32xf32>) outs(%{{.*}} : tensor<4x64x64xf32>) -> tensor<4x64x64xf32>
// CHECK:         mips.batch_matmul transpose_lhs ins(%{{.*}}, %{{.*}} : memref<?x16x8xi8>, memref<16x5xi8>) outs(%{{.*}} : memref<?x8x5xi32>)
func.func @batch(%q: tensor<4x64x32xf32>, %k: tensor<4x64x32xf32>, %s: tensor<4x64x64xf32>,
                 %at: memref<?x16x8xi8>, %w: memref<16x5xi8>, %c: memref<?x8x5xi32>) -> tensor<4x64x64xf32> {
  %r = mips.batch_matmul transpose_rhs overwrite ins(%q, %k : tensor<4x64x32xf32>, tensor<4x64x32xf32>) outs(%s : tensor<4x64x64xf32>) -> tensor<4x64x64xf32>
  mips.batch_matmul transpose_lhs ins(%at, %w : memref<?x16x8xi8>, memref<16x5xi8>) outs(%c : memref<?x8x5xi32>)
  return %r : tensor<4x64x64xf32>
}
