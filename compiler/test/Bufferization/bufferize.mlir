// RUN: mips-opt %s -split-input-file --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" | FileCheck %s

// Bufferization swaps tensors for buffers and nothing else: no call yet, and
// the flags are kept.
// CHECK-LABEL: func.func @swaps_types
// CHECK-SAME:    %[[A:.*]]: memref<4x8xf32>, %[[BT:.*]]: memref<16x8xf32>, %[[C:.*]]: memref<4x16xf32>
// CHECK-NOT:     call
// CHECK:         mips.matmul transpose_rhs ins(%[[A]], %[[BT]] : memref<4x8xf32>, memref<16x8xf32>) outs(%[[C]] : memref<4x16xf32>){{$}}
// CHECK:         return %[[C]]
func.func @swaps_types(%a: tensor<4x8xf32>, %bt: tensor<16x8xf32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %r = mips.matmul transpose_rhs ins(%a, %bt : tensor<4x8xf32>, tensor<16x8xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// -----

// With overwrite, the init is not read: a tensor.empty init needs no copy,
// only an allocation.
// CHECK-LABEL: func.func @overwrite_into_new_buffer
// CHECK:         %[[ALLOC:.*]] = memref.alloc() {{.*}}: memref<4x16xf32>
// CHECK-NOT:     memref.copy
// CHECK:         mips.matmul overwrite ins(%{{.*}}, %{{.*}} : memref<4x8xf32>, memref<8x16xf32>) outs(%[[ALLOC]] : memref<4x16xf32>)
// CHECK:         return %[[ALLOC]]
func.func @overwrite_into_new_buffer(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>) -> tensor<4x16xf32> {
  %e = tensor.empty() : tensor<4x16xf32>
  %r = mips.matmul overwrite ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// -----

// Without overwrite a read-only init is copied before the product lands in it.
// CHECK-LABEL: func.func @accumulate_into_copy
// CHECK:         %[[ALLOC:.*]] = memref.alloc() {{.*}}: memref<4x16xf32>
// CHECK:         memref.copy %{{.*}}, %[[ALLOC]]
// CHECK:         mips.matmul ins(%{{.*}}, %{{.*}} : memref<4x8xf32>, memref<8x16xf32>) outs(%[[ALLOC]] : memref<4x16xf32>)
func.func @accumulate_into_copy(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32> {bufferization.writable = false}) -> tensor<4x16xf32> {
  %r = mips.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// -----

// The inline choice made on tensors survives bufferization.
// CHECK-LABEL: func.func @keeps_inlined
// CHECK:         mips.matmul transpose_lhs overwrite inlined ins(%{{.*}}, %{{.*}} : memref<4x4xi8>, memref<4x4xi8>) outs(%{{.*}} : memref<4x4xi32>)
func.func @keeps_inlined(%at: tensor<4x4xi8>, %b: tensor<4x4xi8>, %c: tensor<4x4xi32>) -> tensor<4x4xi32> {
  %r = mips.matmul transpose_lhs overwrite inlined ins(%at, %b : tensor<4x4xi8>, tensor<4x4xi8>) outs(%c : tensor<4x4xi32>) -> tensor<4x4xi32>
  return %r : tensor<4x4xi32>
}

// -----

// A batch bufferizes the same way; with overwrite its init is not read.
// CHECK-LABEL: func.func @batch
// CHECK-SAME:    %[[Q:.*]]: memref<4x8x16xf32>, %[[K:.*]]: memref<4x8x16xf32>
// CHECK:         %[[ALLOC:.*]] = memref.alloc() {{.*}}: memref<4x8x8xf32>
// CHECK-NOT:     memref.copy
// CHECK:         mips.batch_matmul transpose_rhs overwrite ins(%[[Q]], %[[K]] : memref<4x8x16xf32>, memref<4x8x16xf32>) outs(%[[ALLOC]] : memref<4x8x8xf32>){{$}}
// CHECK:         return %[[ALLOC]]
func.func @batch(%q: tensor<4x8x16xf32>, %k: tensor<4x8x16xf32>) -> tensor<4x8x8xf32> {
  %e = tensor.empty() : tensor<4x8x8xf32>
  %r = mips.batch_matmul transpose_rhs overwrite ins(%q, %k : tensor<4x8x16xf32>, tensor<4x8x16xf32>) outs(%e : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  return %r : tensor<4x8x8xf32>
}
