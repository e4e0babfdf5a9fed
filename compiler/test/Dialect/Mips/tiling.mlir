// RUN: mips-opt %s -split-input-file --transform-interpreter --canonicalize -verify-diagnostics | FileCheck %s

// Upstream's tiling driver works on mips.matmul through its TilingInterface:
// M and N tiles are slices of A, B and C, a K tile a slice of the reduction.
// CHECK-LABEL: func.func @tile_mnk
// CHECK-SAME:    %[[A:.*]]: tensor<64x96xf32>, %[[B:.*]]: tensor<96x32xf32>, %[[C:.*]]: tensor<64x32xf32>
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[N8:.*]] = arith.constant 8 : index
// CHECK-DAG:     %[[N16:.*]] = arith.constant 16 : index
// CHECK-DAG:     %[[N32:.*]] = arith.constant 32 : index
// CHECK-DAG:     %[[N64:.*]] = arith.constant 64 : index
// CHECK-DAG:     %[[N96:.*]] = arith.constant 96 : index
// CHECK:         scf.for %[[I:[^ ]+]] = %[[ZERO]] to %[[N64]] step %[[N16]] iter_args(%[[C1:[^ ]+]] = %[[C]])
// CHECK:           scf.for %[[J:[^ ]+]] = %[[ZERO]] to %[[N32]] step %[[N8]] iter_args(%[[C2:[^ ]+]] = %[[C1]])
// CHECK:             scf.for %[[K:[^ ]+]] = %[[ZERO]] to %[[N96]] step %[[N32]] iter_args(%[[C3:[^ ]+]] = %[[C2]])
// CHECK:               %[[TA:.*]] = tensor.extract_slice %[[A]][%[[I]], %[[K]]] [16, 32] [1, 1]
// CHECK:               %[[TB:.*]] = tensor.extract_slice %[[B]][%[[K]], %[[J]]] [32, 8] [1, 1]
// CHECK:               %[[TC:.*]] = tensor.extract_slice %[[C3]][%[[I]], %[[J]]] [16, 8] [1, 1]
// CHECK:               %[[T:.*]] = mips.matmul ins(%[[TA]], %[[TB]] : tensor<16x32xf32>, tensor<32x8xf32>) outs(%[[TC]] : tensor<16x8xf32>)
// CHECK:               tensor.insert_slice %[[T]] into %[[C3]][%[[I]], %[[J]]] [16, 8] [1, 1]
func.func @tile_mnk(%a: tensor<64x96xf32>, %b: tensor<96x32xf32>, %c: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %r = mips.matmul ins(%a, %b : tensor<64x96xf32>, tensor<96x32xf32>) outs(%c : tensor<64x32xf32>) -> tensor<64x32xf32>
  return %r : tensor<64x32xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["mips.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l:3 = transform.structured.tile_using_for %m tile_sizes [16, 8, 32]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// A transposed operand is sliced in its stored order; an overwriting matmul
// tiles along M and N.
// CHECK-LABEL: func.func @tile_transposed_overwrite
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[N16:.*]] = arith.constant 16 : index
// CHECK-DAG:     %[[N64:.*]] = arith.constant 64 : index
// CHECK:         scf.for %[[I:[^ ]+]] = %[[ZERO]] to %[[N64]] step %[[N16]]
// CHECK:           tensor.extract_slice %{{.*}}[0, %[[I]]] [96, 16] [1, 1] : tensor<96x64xf32> to tensor<96x16xf32>
// CHECK:           mips.matmul transpose_lhs overwrite ins(%{{.*}}, %{{.*}} : tensor<96x16xf32>, tensor<96x32xf32>) outs(%{{.*}} : tensor<16x32xf32>)
func.func @tile_transposed_overwrite(%at: tensor<96x64xf32>, %b: tensor<96x32xf32>, %c: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %r = mips.matmul transpose_lhs overwrite ins(%at, %b : tensor<96x64xf32>, tensor<96x32xf32>) outs(%c : tensor<64x32xf32>) -> tensor<64x32xf32>
  return %r : tensor<64x32xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["mips.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_for %m tile_sizes [16, 0, 0]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// Its K tiles would need overwrite in the first and accumulate in the others.
func.func @overwrite_k_tiles(%a: tensor<64x96xf32>, %b: tensor<96x32xf32>, %c: tensor<64x32xf32>) -> tensor<64x32xf32> {
  // expected-error @+3 {{'mips.matmul' op with 'overwrite' cannot be tiled along K; make the zero init explicit first}}
  // expected-error @+2 {{to tile operation}}
  // expected-error @+1 {{failed to generate tiling loops}}
  %r = mips.matmul overwrite ins(%a, %b : tensor<64x96xf32>, tensor<96x32xf32>) outs(%c : tensor<64x32xf32>) -> tensor<64x32xf32>
  return %r : tensor<64x32xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["mips.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_for %m tile_sizes [0, 0, 32]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
