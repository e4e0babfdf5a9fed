// RUN: mips-opt %s --mips-decompose-quantized-matmuls | FileCheck %s

// A quantized matmul is the int8 product, the row sums of A times zb and the column
// sums of B times za subtracted, and K * za * zb added (K = 8), all in i32; constant
// zero points of 0 leave the product alone; on buffers the corrections are loops
// that update C in place.
// CHECK-LABEL: func.func @quantized
// CHECK-SAME:    %[[A:[^:]*]]: tensor<4x8xi8>, %[[B:[^:]*]]: tensor<8x16xi8>, %[[ZA:[^:]*]]: i32, %[[ZB:[^:]*]]: i32, %[[C:[^:]*]]: tensor<4x16xi32>
// CHECK-DAG:     %[[K:.*]] = arith.constant 8 : i32
// CHECK:         %[[P:.*]] = linalg.matmul ins(%[[A]], %[[B]] : tensor<4x8xi8>, tensor<8x16xi8>) outs(%[[C]] : tensor<4x16xi32>)
// CHECK:         %[[ROWS:.*]] = linalg.generic {{.*}} ins(%[[A]] : tensor<4x8xi8>)
// CHECK:         %[[COLS:.*]] = linalg.generic {{.*}} ins(%[[B]] : tensor<8x16xi8>)
// CHECK:         %[[ZZ:.*]] = arith.muli %[[ZA]], %[[ZB]] : i32
// CHECK:         %[[KZZ:.*]] = arith.muli %[[ZZ]], %[[K]] : i32
// CHECK:         linalg.generic {{.*}} ins(%[[ROWS]], %[[COLS]] : tensor<4xi32>, tensor<16xi32>) outs(%[[P]] : tensor<4x16xi32>)
// CHECK:           %[[R:.*]] = arith.muli %[[ZB]], %{{.*}} : i32
// CHECK:           %[[T:.*]] = arith.subi %{{.*}}, %[[R]] : i32
// CHECK:           %[[S:.*]] = arith.muli %[[ZA]], %{{.*}} : i32
// CHECK:           %[[U:.*]] = arith.subi %[[T]], %[[S]] : i32
// CHECK:           arith.addi %[[U]], %[[KZZ]] : i32
// CHECK-NOT:     linalg.quantized_matmul
// CHECK-LABEL: func.func @zero_points_zero
// CHECK-NEXT:    %[[Q:.*]] = linalg.matmul
// CHECK-NEXT:    return %[[Q]]
// CHECK-LABEL: func.func @on_buffers
// CHECK:         linalg.matmul ins(%arg0, %arg1 : memref<4x8xi8>, memref<8x16xi8>) outs(%arg4 : memref<4x16xi32>)
// CHECK:         scf.for
// CHECK-NOT:     linalg.quantized_matmul
func.func @quantized(%a: tensor<4x8xi8>, %b: tensor<8x16xi8>, %za: i32, %zb: i32, %c: tensor<4x16xi32>) -> tensor<4x16xi32> {
  %r = linalg.quantized_matmul ins(%a, %b, %za, %zb : tensor<4x8xi8>, tensor<8x16xi8>, i32, i32) outs(%c : tensor<4x16xi32>) -> tensor<4x16xi32>
  return %r : tensor<4x16xi32>
}
func.func @zero_points_zero(%a: tensor<4x8xi8>, %b: tensor<8x16xi8>, %c: tensor<4x16xi32>) -> tensor<4x16xi32> {
  %z = arith.constant 0 : i32
  %r = linalg.quantized_matmul ins(%a, %b, %z, %z : tensor<4x8xi8>, tensor<8x16xi8>, i32, i32) outs(%c : tensor<4x16xi32>) -> tensor<4x16xi32>
  return %r : tensor<4x16xi32>
}
func.func @on_buffers(%a: memref<4x8xi8>, %b: memref<8x16xi8>, %za: i32, %zb: i32, %c: memref<4x16xi32>) {
  linalg.quantized_matmul ins(%a, %b, %za, %zb : memref<4x8xi8>, memref<8x16xi8>, i32, i32) outs(%c : memref<4x16xi32>)
  return
}
