// RUN: mips-opt %s -split-input-file --mips-raise-contractions --mips-decompose-quantized-matmuls --convert-linalg-to-mips | FileCheck %s

// CHECK-LABEL: func.func @static_f32
// CHECK-SAME:    %[[A:.*]]: tensor<4x8xf32>, %[[B:.*]]: tensor<8x16xf32>, %[[C:.*]]: tensor<4x16xf32>
// CHECK:         %[[R:.*]] = mips.matmul ins(%[[A]], %[[B]] : tensor<4x8xf32>, tensor<8x16xf32>) outs(%[[C]] : tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NOT:     linalg.matmul
// CHECK:         return %[[R]]
func.func @static_f32(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// -----

// CHECK-LABEL: func.func @dynamic_f32
// CHECK:         mips.matmul ins(%{{.*}}, %{{.*}} : tensor<?x?xf32>, tensor<?x?xf32>) outs(%{{.*}} : tensor<?x?xf32>) -> tensor<?x?xf32>
func.func @dynamic_f32(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>, %c: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>) outs(%c : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// -----

#map_a = affine_map<(d0, d1, d2) -> (d0, d2)>
#map_at = affine_map<(d0, d1, d2) -> (d2, d0)>
#map_b = affine_map<(d0, d1, d2) -> (d2, d1)>
#map_bt = affine_map<(d0, d1, d2) -> (d1, d2)>
#map_c = affine_map<(d0, d1, d2) -> (d0, d1)>

// Transposes are flags on the op, never copies.
// CHECK-LABEL: func.func @transpose_lhs
// CHECK-SAME:    %[[AT:.*]]: tensor<8x4xf32>
// CHECK-NOT:     linalg.transpose
// CHECK:         mips.matmul transpose_lhs ins(%[[AT]], %{{.*}} : tensor<8x4xf32>, tensor<8x16xf32>)
func.func @transpose_lhs(%at: tensor<8x4xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %r = linalg.matmul indexing_maps = [#map_at, #map_b, #map_c] ins(%at, %b : tensor<8x4xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// CHECK-LABEL: func.func @transpose_rhs
// CHECK:         mips.matmul transpose_rhs ins(%{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<16x8xf32>)
func.func @transpose_rhs(%a: tensor<4x8xf32>, %bt: tensor<16x8xf32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %r = linalg.matmul indexing_maps = [#map_a, #map_bt, #map_c] ins(%a, %bt : tensor<4x8xf32>, tensor<16x8xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// CHECK-LABEL: func.func @transpose_both_dynamic
// CHECK:         mips.matmul transpose_lhs transpose_rhs ins(%{{.*}}, %{{.*}} : tensor<?x?xf32>, tensor<?x?xf32>)
func.func @transpose_both_dynamic(%at: tensor<?x?xf32>, %bt: tensor<?x?xf32>, %c: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %r = linalg.matmul indexing_maps = [#map_at, #map_bt, #map_c] ins(%at, %bt : tensor<?x?xf32>, tensor<?x?xf32>) outs(%c : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// -----

// CHECK-LABEL: func.func @int8_to_int32
// CHECK:         mips.matmul ins(%{{.*}}, %{{.*}} : tensor<3x5xi8>, tensor<5x7xi8>) outs(%{{.*}} : tensor<3x7xi32>) -> tensor<3x7xi32>
func.func @int8_to_int32(%a: tensor<3x5xi8>, %b: tensor<5x7xi8>, %c: tensor<3x7xi32>) -> tensor<3x7xi32> {
  %r = linalg.matmul ins(%a, %b : tensor<3x5xi8>, tensor<5x7xi8>) outs(%c : tensor<3x7xi32>) -> tensor<3x7xi32>
  return %r : tensor<3x7xi32>
}

// -----

// A +0 fill of the init becomes `overwrite`: libmips then never reads C, and
// the fill is gone.
// CHECK-LABEL: func.func @zero_fill_folds
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<4x16xf32>
// CHECK-NOT:     linalg.fill
// CHECK:         mips.matmul overwrite ins(%{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<8x16xf32>) outs(%[[E]] : tensor<4x16xf32>)
func.func @zero_fill_folds(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>) -> tensor<4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %r = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%f : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// CHECK-LABEL: func.func @int_zero_fill_folds
// CHECK:         mips.matmul overwrite ins
func.func @int_zero_fill_folds(%a: tensor<3x5xi8>, %b: tensor<5x7xi8>) -> tensor<3x7xi32> {
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<3x7xi32>
  %f = linalg.fill ins(%zero : i32) outs(%e : tensor<3x7xi32>) -> tensor<3x7xi32>
  %r = linalg.matmul ins(%a, %b : tensor<3x5xi8>, tensor<5x7xi8>) outs(%f : tensor<3x7xi32>) -> tensor<3x7xi32>
  return %r : tensor<3x7xi32>
}

// -0.0 + x is not x for x = +0, so a -0 fill stays an accumulation; so does 1.
// CHECK-LABEL: func.func @nonzero_fills_stay
// CHECK:         %[[NEG:.*]] = linalg.fill
// CHECK:         %[[ONE:.*]] = linalg.fill
// CHECK:         mips.matmul ins(%{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<8x16xf32>) outs(%[[NEG]] : tensor<4x16xf32>)
// CHECK:         mips.matmul ins(%{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<8x16xf32>) outs(%[[ONE]] : tensor<4x16xf32>)
func.func @nonzero_fills_stay(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>) -> (tensor<4x16xf32>, tensor<4x16xf32>) {
  %neg = arith.constant -0.0 : f32
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<4x16xf32>
  %f0 = linalg.fill ins(%neg : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %f1 = linalg.fill ins(%one : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %r0 = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%f0 : tensor<4x16xf32>) -> tensor<4x16xf32>
  %r1 = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%f1 : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %r0, %r1 : tensor<4x16xf32>, tensor<4x16xf32>
}

// -----

#map_a = affine_map<(d0, d1, d2) -> (d0, d2)>
#map_b = affine_map<(d0, d1, d2) -> (d2, d1)>
#map_c = affine_map<(d0, d1, d2) -> (d0, d1)>
#map_bcast = affine_map<(d0, d1, d2) -> (d2)>

// What libmips cannot run is left for the default lowering.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT:     mips.matmul
// CHECK:         linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<4x8xf64>
// CHECK:         linalg.matmul {cast = #linalg.type_fn<cast_unsigned>}
// CHECK:         linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<4x8xi16>
// CHECK:         linalg.matmul indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}] ins(%{{.*}}, %{{.*}} : tensor<8xf32>
// CHECK-NOT:     mips.matmul
func.func @left_alone(%a64: tensor<4x8xf64>, %b64: tensor<8x16xf64>, %c64: tensor<4x16xf64>,
                      %a8: tensor<3x5xi8>, %b8: tensor<5x7xi8>, %c32: tensor<3x7xi32>,
                      %a16: tensor<4x8xi16>, %b16: tensor<8x16xi16>, %c16: tensor<4x16xi32>,
                      %v: tensor<8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>)
    -> (tensor<4x16xf64>, tensor<3x7xi32>, tensor<4x16xi32>, tensor<4x16xf32>) {
  %r64 = linalg.matmul ins(%a64, %b64 : tensor<4x8xf64>, tensor<8x16xf64>) outs(%c64 : tensor<4x16xf64>) -> tensor<4x16xf64>
  %ru = linalg.matmul {cast = #linalg.type_fn<cast_unsigned>} ins(%a8, %b8 : tensor<3x5xi8>, tensor<5x7xi8>) outs(%c32 : tensor<3x7xi32>) -> tensor<3x7xi32>
  %r16 = linalg.matmul ins(%a16, %b16 : tensor<4x8xi16>, tensor<8x16xi16>) outs(%c16 : tensor<4x16xi32>) -> tensor<4x16xi32>
  %rb = linalg.matmul indexing_maps = [#map_bcast, #map_b, #map_c] ins(%v, %b : tensor<8xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %r64, %ru, %r16, %rb : tensor<4x16xf64>, tensor<3x7xi32>, tensor<4x16xi32>, tensor<4x16xf32>
}

// -----

// On buffers the op writes into the init: no result, no fill folding.
// CHECK-LABEL: func.func @on_memrefs
// CHECK-SAME:    %[[A:.*]]: memref<4x8xf32>, %[[B:.*]]: memref<16x8xf32, strided<[?, ?], offset: ?>>, %[[C:.*]]: memref<4x16xf32>
// CHECK:         mips.matmul transpose_rhs ins(%[[A]], %[[B]] : memref<4x8xf32>, memref<16x8xf32, strided<[?, ?], offset: ?>>) outs(%[[C]] : memref<4x16xf32>){{$}}
// CHECK-NOT:     linalg.matmul
#map_a = affine_map<(d0, d1, d2) -> (d0, d2)>
#map_bt = affine_map<(d0, d1, d2) -> (d1, d2)>
#map_c = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @on_memrefs(%a: memref<4x8xf32>, %bt: memref<16x8xf32, strided<[?, ?], offset: ?>>, %c: memref<4x16xf32>) {
  linalg.matmul indexing_maps = [#map_a, #map_bt, #map_c] ins(%a, %bt : memref<4x8xf32>, memref<16x8xf32, strided<[?, ?], offset: ?>>) outs(%c : memref<4x16xf32>)
  return
}

// -----

// A batch is mips.batch_matmul (convert-mips-to-libmips makes it one call or a
// loop of calls); the zero fill of the whole init becomes overwrite.
// CHECK-LABEL: func.func @batch
// CHECK-SAME:    %[[A:.*]]: tensor<?x4x8xf32>, %[[B:.*]]: tensor<?x8x16xf32>
// CHECK:         %[[E:.*]] = tensor.empty
// CHECK-NOT:     linalg.fill
// CHECK:         %[[R:.*]] = mips.batch_matmul overwrite ins(%[[A]], %[[B]] : tensor<?x4x8xf32>, tensor<?x8x16xf32>) outs(%[[E]] : tensor<?x4x16xf32>) -> tensor<?x4x16xf32>
// CHECK:         return %[[R]]
func.func @batch(%a: tensor<?x4x8xf32>, %b: tensor<?x8x16xf32>) -> tensor<?x4x16xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %n = tensor.dim %a, %c0 : tensor<?x4x8xf32>
  %e = tensor.empty(%n) : tensor<?x4x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x4x16xf32>) -> tensor<?x4x16xf32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<?x4x8xf32>, tensor<?x8x16xf32>) outs(%f : tensor<?x4x16xf32>) -> tensor<?x4x16xf32>
  return %r : tensor<?x4x16xf32>
}

// -----

// Transposed maps become flags; an operand without the batch dimension is
// shared by every entry; a unit batch needs no loop.
// CHECK-LABEL: func.func @batch_transposed_broadcast
// CHECK-SAME:    %[[A:.*]]: tensor<3x8x4xi8>, %[[B:.*]]: tensor<8x16xi8>, %[[C:.*]]: tensor<3x4x16xi32>
// CHECK:         mips.batch_matmul transpose_lhs ins(%[[A]], %[[B]] : tensor<3x8x4xi8>, tensor<8x16xi8>) outs(%[[C]] : tensor<3x4x16xi32>)
// CHECK-LABEL: func.func @unit_batch
// CHECK-NOT:     scf.for
// CHECK:         %[[SA:.*]] = tensor.extract_slice %{{.*}}[0, 0, 0] [1, 4, 8] [1, 1, 1] : tensor<1x4x8xf32> to tensor<4x8xf32>
// CHECK:         mips.matmul ins(%[[SA]], %{{.*}} : tensor<4x8xf32>, tensor<8x16xf32>)
// CHECK:         tensor.insert_slice
#bmap_at = affine_map<(b, m, n, k) -> (b, k, m)>
#bmap_b_shared = affine_map<(b, m, n, k) -> (k, n)>
#bmap_c = affine_map<(b, m, n, k) -> (b, m, n)>
func.func @batch_transposed_broadcast(%at: tensor<3x8x4xi8>, %b: tensor<8x16xi8>, %c: tensor<3x4x16xi32>) -> tensor<3x4x16xi32> {
  %r = linalg.batch_matmul indexing_maps = [#bmap_at, #bmap_b_shared, #bmap_c]
         ins(%at, %b : tensor<3x8x4xi8>, tensor<8x16xi8>) outs(%c : tensor<3x4x16xi32>) -> tensor<3x4x16xi32>
  return %r : tensor<3x4x16xi32>
}
func.func @unit_batch(%a: tensor<1x4x8xf32>, %b: tensor<1x8x16xf32>, %c: tensor<1x4x16xf32>) -> tensor<1x4x16xf32> {
  %r = linalg.batch_matmul ins(%a, %b : tensor<1x4x8xf32>, tensor<1x8x16xf32>) outs(%c : tensor<1x4x16xf32>) -> tensor<1x4x16xf32>
  return %r : tensor<1x4x16xf32>
}
// An operand whose batch is dynamic keeps the batch op: its extent is checked against
// init's 1 when the call is made.
// CHECK-LABEL: func.func @unit_batch_dynamic_operand
// CHECK:         mips.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<?x4x8xf32>, tensor<1x8x16xf32>)
func.func @unit_batch_dynamic_operand(%a: tensor<?x4x8xf32>, %b: tensor<1x8x16xf32>, %c: tensor<1x4x16xf32>) -> tensor<1x4x16xf32> {
  %r = linalg.batch_matmul ins(%a, %b : tensor<?x4x8xf32>, tensor<1x8x16xf32>) outs(%c : tensor<1x4x16xf32>) -> tensor<1x4x16xf32>
  return %r : tensor<1x4x16xf32>
}

// -----

// CHECK-LABEL: func.func @batch_on_memrefs
// CHECK:         mips.batch_matmul ins(%{{.*}}, %{{.*}} : memref<5x4x8xf32>, memref<5x8x16xf32>) outs(%{{.*}} : memref<5x4x16xf32>){{$}}
// CHECK-NOT:     linalg.batch_matmul
func.func @batch_on_memrefs(%a: memref<5x4x8xf32>, %b: memref<5x8x16xf32>, %c: memref<5x4x16xf32>) {
  linalg.batch_matmul ins(%a, %b : memref<5x4x8xf32>, memref<5x8x16xf32>) outs(%c : memref<5x4x16xf32>)
  return
}

// -----

// A vector is a one-column (matvec) or one-row (vecmat) matrix view.
// CHECK-LABEL: func.func @matvec
// CHECK-SAME:    %[[A:.*]]: tensor<?x?xf32>, %[[X:.*]]: tensor<?xf32>, %[[Y:.*]]: tensor<?xf32>
// CHECK:         %[[X2:.*]] = tensor.expand_shape %[[X]] {{\[\[}}0, 1]] output_shape [%{{.*}}, 1] : tensor<?xf32> into tensor<?x1xf32>
// CHECK:         %[[Y2:.*]] = tensor.expand_shape %[[Y]] {{\[\[}}0, 1]] output_shape [%{{.*}}, 1] : tensor<?xf32> into tensor<?x1xf32>
// CHECK:         %[[P:.*]] = mips.matmul ins(%[[A]], %[[X2]] : tensor<?x?xf32>, tensor<?x1xf32>) outs(%[[Y2]] : tensor<?x1xf32>)
// CHECK:         tensor.collapse_shape %[[P]] {{\[\[}}0, 1]] : tensor<?x1xf32> into tensor<?xf32>
// CHECK-LABEL: func.func @vecmat
// CHECK:         tensor.expand_shape %{{.*}} {{\[\[}}0, 1]] output_shape [1, 8] : tensor<8xi8> into tensor<1x8xi8>
// CHECK:         mips.matmul overwrite ins(%{{.*}}, %{{.*}} : tensor<1x8xi8>, tensor<8x5xi8>) outs(%{{.*}} : tensor<1x5xi32>)
// CHECK:         tensor.collapse_shape %{{.*}} : tensor<1x5xi32> into tensor<5xi32>
// CHECK-LABEL: func.func @matvec_on_memrefs
// CHECK:         memref.expand_shape %{{.*}} {{\[\[}}0, 1]] output_shape [8, 1] : memref<8xf32> into memref<8x1xf32>
// CHECK:         mips.matmul ins(%{{.*}}, %{{.*}} : memref<4x8xf32>, memref<8x1xf32>) outs(%{{.*}} : memref<4x1xf32>){{$}}
func.func @matvec(%a: tensor<?x?xf32>, %x: tensor<?xf32>, %y: tensor<?xf32>) -> tensor<?xf32> {
  %r = linalg.matvec ins(%a, %x : tensor<?x?xf32>, tensor<?xf32>) outs(%y : tensor<?xf32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}
func.func @vecmat(%x: tensor<8xi8>, %b: tensor<8x5xi8>) -> tensor<5xi32> {
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<5xi32>
  %f = linalg.fill ins(%zero : i32) outs(%e : tensor<5xi32>) -> tensor<5xi32>
  %r = linalg.vecmat ins(%x, %b : tensor<8xi8>, tensor<8x5xi8>) outs(%f : tensor<5xi32>) -> tensor<5xi32>
  return %r : tensor<5xi32>
}
func.func @matvec_on_memrefs(%a: memref<4x8xf32>, %x: memref<8xf32>, %y: memref<4xf32>) {
  linalg.matvec ins(%a, %x : memref<4x8xf32>, memref<8xf32>) outs(%y : memref<4xf32>)
  return
}

// -----

// sum (a - za)(b - zb) = sum ab - zb rowsum(A) - za colsum(B) + K za zb.
// CHECK-LABEL: func.func @quantized
// CHECK-SAME:    %[[A:.*]]: tensor<4x8xi8>, %[[B:.*]]: tensor<8x16xi8>, %[[C:.*]]: tensor<4x16xi32>, %[[ZA:.*]]: i32, %[[ZB:.*]]: i32
// CHECK-DAG:     %[[P:.*]] = mips.matmul ins(%[[A]], %[[B]] : tensor<4x8xi8>, tensor<8x16xi8>) outs(%[[C]] : tensor<4x16xi32>)
// CHECK-DAG:     %[[ROWS:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]{{.*}} ins(%[[A]] : tensor<4x8xi8>) outs(%{{.*}} : tensor<4xi32>)
// CHECK-DAG:     %[[COLS:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]{{.*}} ins(%[[B]] : tensor<8x16xi8>) outs(%{{.*}} : tensor<16xi32>)
// CHECK-DAG:     %[[ZZ:.*]] = arith.muli %[[ZA]], %[[ZB]] : i32
// CHECK-DAG:     %[[K:.*]] = arith.constant 8 : i32
// CHECK-DAG:     %[[KZZ:.*]] = arith.muli %[[ZZ]], %[[K]] : i32
// CHECK:         %[[R:.*]] = linalg.generic {{.*}} ins(%[[ROWS]], %[[COLS]] : tensor<4xi32>, tensor<16xi32>) outs(%[[P]] : tensor<4x16xi32>)
// CHECK-NEXT:    ^bb0(%[[ROW:.*]]: i32, %[[COL:.*]]: i32, %[[ACC:.*]]: i32):
// CHECK-NEXT:      %[[T1:.*]] = arith.muli %[[ZB]], %[[ROW]]
// CHECK-NEXT:      %[[T2:.*]] = arith.subi %[[ACC]], %[[T1]]
// CHECK-NEXT:      %[[T3:.*]] = arith.muli %[[ZA]], %[[COL]]
// CHECK-NEXT:      %[[T4:.*]] = arith.subi %[[T2]], %[[T3]]
// CHECK-NEXT:      %[[T5:.*]] = arith.addi %[[T4]], %[[KZZ]]
// CHECK-NEXT:      linalg.yield %[[T5]]
// CHECK:         return %[[R]]
func.func @quantized(%a: tensor<4x8xi8>, %b: tensor<8x16xi8>, %c: tensor<4x16xi32>, %za: i32, %zb: i32) -> tensor<4x16xi32> {
  %r = linalg.quantized_matmul ins(%a, %b, %za, %zb : tensor<4x8xi8>, tensor<8x16xi8>, i32, i32) outs(%c : tensor<4x16xi32>) -> tensor<4x16xi32>
  return %r : tensor<4x16xi32>
}

// -----

// Zero zero points need no corrections; a batch is mips.batch_matmul.
// CHECK-LABEL: func.func @quantized_zero_points
// CHECK-NOT:     linalg.generic
// CHECK:         mips.matmul
// CHECK-NOT:     linalg.generic
// CHECK-LABEL: func.func @quantized_batch
// CHECK:         mips.batch_matmul overwrite ins(%{{.*}}, %{{.*}} : tensor<2x3x8xi8>, tensor<2x8x5xi8>)
// CHECK:         linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]{{.*}} ins(%{{.*}} : tensor<2x3x8xi8>) outs(%{{.*}} : tensor<2x3xi32>)
// CHECK-NOT:     ins(%{{.*}} : tensor<2x8x5xi8>)
// CHECK:         linalg.generic {{.*}} ins(%{{.*}} : tensor<2x3xi32>) outs(%{{.*}} : tensor<2x3x5xi32>)
func.func @quantized_zero_points(%a: tensor<4x8xi8>, %b: tensor<8x16xi8>, %c: tensor<4x16xi32>) -> tensor<4x16xi32> {
  %z = arith.constant 0 : i32
  %r = linalg.quantized_matmul ins(%a, %b, %z, %z : tensor<4x8xi8>, tensor<8x16xi8>, i32, i32) outs(%c : tensor<4x16xi32>) -> tensor<4x16xi32>
  return %r : tensor<4x16xi32>
}
func.func @quantized_batch(%a: tensor<2x3x8xi8>, %b: tensor<2x8x5xi8>, %zb: i8) -> tensor<2x3x5xi32> {
  %za = arith.constant 0 : i32
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<2x3x5xi32>
  %f = linalg.fill ins(%zero : i32) outs(%e : tensor<2x3x5xi32>) -> tensor<2x3x5xi32>
  %r = linalg.quantized_batch_matmul ins(%a, %b, %za, %zb : tensor<2x3x8xi8>, tensor<2x8x5xi8>, i32, i8) outs(%f : tensor<2x3x5xi32>) -> tensor<2x3x5xi32>
  return %r : tensor<2x3x5xi32>
}

// -----

// Unsigned int8 stays loops: libmips sign-extends.
// CHECK-LABEL: func.func @unsigned_batch
// CHECK-NOT:     mips.matmul
// CHECK:         linalg.batch_matmul
func.func @unsigned_batch(%a: tensor<2x3x8xi8>, %b: tensor<2x8x5xi8>, %c: tensor<2x3x5xi32>) -> tensor<2x3x5xi32> {
  %r = linalg.batch_matmul {cast = #linalg.type_fn<cast_unsigned>} ins(%a, %b : tensor<2x3x8xi8>, tensor<2x8x5xi8>) outs(%c : tensor<2x3x5xi32>) -> tensor<2x3x5xi32>
  return %r : tensor<2x3x5xi32>
}

// -----

// A generic that is a matmul becomes the named op, then mips.matmul; its
// generalized zero fill becomes overwrite. Transposed maps become flags.
#g_a = affine_map<(m, n, k) -> (m, k)>
#g_bt = affine_map<(m, n, k) -> (n, k)>
#g_c = affine_map<(m, n, k) -> (m, n)>
#g_fill_in = affine_map<(m, n) -> ()>
#g_fill_out = affine_map<(m, n) -> (m, n)>
// CHECK-LABEL: func.func @generic_matmul
// CHECK-SAME:    %[[A:.*]]: tensor<4x8xf32>, %[[BT:.*]]: tensor<16x8xf32>
// CHECK-NOT:     linalg.generic
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<4x16xf32>
// CHECK-NOT:     linalg.generic
// CHECK:         mips.matmul transpose_rhs overwrite ins(%[[A]], %[[BT]] : tensor<4x8xf32>, tensor<16x8xf32>) outs(%[[E]] : tensor<4x16xf32>)
func.func @generic_matmul(%a: tensor<4x8xf32>, %bt: tensor<16x8xf32>) -> tensor<4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x16xf32>
  %f = linalg.generic {indexing_maps = [#g_fill_in, #g_fill_out], iterator_types = ["parallel", "parallel"]}
    ins(%zero : f32) outs(%e : tensor<4x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<4x16xf32>
  %r = linalg.generic {indexing_maps = [#g_a, #g_bt, #g_c], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%a, %bt : tensor<4x8xf32>, tensor<16x8xf32>) outs(%f : tensor<4x16xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// -----

// Generic matvec (matrix indexed (i, k)) and vecmat (matrix indexed (k, i)),
// either operand first, int8 with sign extension: one-column and one-row views.
#v_m = affine_map<(i, k) -> (i, k)>
#v_mt = affine_map<(i, k) -> (k, i)>
#v_x = affine_map<(i, k) -> (k)>
#v_y = affine_map<(i, k) -> (i)>
// CHECK-LABEL: func.func @generic_vector_products
// CHECK-SAME:    %[[A:.*]]: tensor<6x9xi8>, %[[X:.*]]: tensor<9xi8>, %[[Y:.*]]: tensor<6xi32>, %[[B:.*]]: tensor<9x5xi8>, %[[Z:.*]]: tensor<5xi32>
// CHECK:         %[[XC:.*]] = tensor.expand_shape %[[X]] {{\[\[}}0, 1]] output_shape [9, 1] : tensor<9xi8> into tensor<9x1xi8>
// CHECK:         %[[YC:.*]] = tensor.expand_shape %[[Y]] {{\[\[}}0, 1]] output_shape [6, 1] : tensor<6xi32> into tensor<6x1xi32>
// CHECK:         mips.matmul ins(%[[A]], %[[XC]] : tensor<6x9xi8>, tensor<9x1xi8>) outs(%[[YC]] : tensor<6x1xi32>)
// CHECK:         %[[XR:.*]] = tensor.expand_shape %[[X]] {{\[\[}}0, 1]] output_shape [1, 9] : tensor<9xi8> into tensor<1x9xi8>
// CHECK:         %[[ZR:.*]] = tensor.expand_shape %[[Z]] {{\[\[}}0, 1]] output_shape [1, 5] : tensor<5xi32> into tensor<1x5xi32>
// CHECK:         mips.matmul ins(%[[XR]], %[[B]] : tensor<1x9xi8>, tensor<9x5xi8>) outs(%[[ZR]] : tensor<1x5xi32>)
// CHECK-NOT:     linalg.generic
func.func @generic_vector_products(%a: tensor<6x9xi8>, %x: tensor<9xi8>, %y: tensor<6xi32>,
                                   %b: tensor<9x5xi8>, %z: tensor<5xi32>) -> (tensor<6xi32>, tensor<5xi32>) {
  %r = linalg.generic {indexing_maps = [#v_m, #v_x, #v_y], iterator_types = ["parallel", "reduction"]}
    ins(%a, %x : tensor<6x9xi8>, tensor<9xi8>) outs(%y : tensor<6xi32>) {
  ^bb0(%p: i8, %q: i8, %acc: i32):
    %pe = arith.extsi %p : i8 to i32
    %qe = arith.extsi %q : i8 to i32
    %m = arith.muli %pe, %qe : i32
    %s = arith.addi %acc, %m : i32
    linalg.yield %s : i32
  } -> tensor<6xi32>
  %t = linalg.generic {indexing_maps = [#v_x, #v_mt, #v_y], iterator_types = ["parallel", "reduction"]}
    ins(%x, %b : tensor<9xi8>, tensor<9x5xi8>) outs(%z : tensor<5xi32>) {
  ^bb0(%p: i8, %q: i8, %acc: i32):
    %pe = arith.extsi %p : i8 to i32
    %qe = arith.extsi %q : i8 to i32
    %m = arith.muli %pe, %qe : i32
    %s = arith.addi %acc, %m : i32
    linalg.yield %s : i32
  } -> tensor<5xi32>
  return %r, %t : tensor<6xi32>, tensor<5xi32>
}

// -----

// A generic batch matmul whose B every entry shares: B stays rank 2.
#gb_a = affine_map<(b, m, n, k) -> (b, m, k)>
#gb_b = affine_map<(b, m, n, k) -> (k, n)>
#gb_c = affine_map<(b, m, n, k) -> (b, m, n)>
// CHECK-LABEL: func.func @generic_batch_shared_rhs
// CHECK-SAME:    %[[A:.*]]: tensor<3x4x8xf32>, %[[B:.*]]: tensor<8x16xf32>
// CHECK:         mips.batch_matmul ins(%[[A]], %[[B]] : tensor<3x4x8xf32>, tensor<8x16xf32>)
func.func @generic_batch_shared_rhs(%a: tensor<3x4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<3x4x16xf32>) -> tensor<3x4x16xf32> {
  %r = linalg.generic {indexing_maps = [#gb_a, #gb_b, #gb_c], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
    ins(%a, %b : tensor<3x4x8xf32>, tensor<8x16xf32>) outs(%c : tensor<3x4x16xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<3x4x16xf32>
  return %r : tensor<3x4x16xf32>
}

// -----

// Generics that are not a multiply-accumulate of the operands stay generics:
// a*b*b, zero-extended int8, and maps that are no matmul.
#n_a = affine_map<(m, n, k) -> (m, k)>
#n_b = affine_map<(m, n, k) -> (k, n)>
#n_bad = affine_map<(m, n, k) -> (n, m)>
#n_c = affine_map<(m, n, k) -> (m, n)>
// CHECK-LABEL: func.func @generic_not_matmuls
// CHECK-NOT:     mips.matmul
// CHECK-COUNT-3: linalg.generic
// CHECK-NOT:     mips.matmul
func.func @generic_not_matmuls(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>,
                               %qa: tensor<4x8xi8>, %qb: tensor<8x16xi8>, %qc: tensor<4x16xi32>,
                               %sq: tensor<16x4xf32>) -> (tensor<4x16xf32>, tensor<4x16xi32>, tensor<4x16xf32>) {
  %r = linalg.generic {indexing_maps = [#n_a, #n_b, #n_c], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %pp = arith.mulf %p, %y : f32
    %s = arith.addf %acc, %pp : f32
    linalg.yield %s : f32
  } -> tensor<4x16xf32>
  %u = linalg.generic {indexing_maps = [#n_a, #n_b, #n_c], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%qa, %qb : tensor<4x8xi8>, tensor<8x16xi8>) outs(%qc : tensor<4x16xi32>) {
  ^bb0(%x: i8, %y: i8, %acc: i32):
    %xe = arith.extui %x : i8 to i32
    %ye = arith.extui %y : i8 to i32
    %p = arith.muli %xe, %ye : i32
    %s = arith.addi %acc, %p : i32
    linalg.yield %s : i32
  } -> tensor<4x16xi32>
  %w = linalg.generic {indexing_maps = [#n_a, #n_bad, #n_c], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%a, %sq : tensor<4x8xf32>, tensor<16x4xf32>) outs(%c : tensor<4x16xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<4x16xf32>
  return %r, %u, %w : tensor<4x16xf32>, tensor<4x16xi32>, tensor<4x16xf32>
}

// -----

// linalg.contract in matmul order, B transposed; an unsigned one stays.
#c_a = affine_map<(m, n, k) -> (m, k)>
#c_bt = affine_map<(m, n, k) -> (n, k)>
#c_c = affine_map<(m, n, k) -> (m, n)>
// CHECK-LABEL: func.func @contract
// CHECK-SAME:    %[[A:.*]]: tensor<4x8xf32>, %[[BT:.*]]: tensor<16x8xf32>, %[[C:.*]]: tensor<4x16xf32>
// CHECK:         mips.matmul transpose_rhs ins(%[[A]], %[[BT]] : tensor<4x8xf32>, tensor<16x8xf32>) outs(%[[C]] : tensor<4x16xf32>)
// CHECK:         linalg.contract {{.*}}cast = #linalg.type_fn<cast_unsigned>
func.func @contract(%a: tensor<4x8xf32>, %bt: tensor<16x8xf32>, %c: tensor<4x16xf32>,
                    %qa: tensor<4x8xi8>, %qbt: tensor<16x8xi8>, %qc: tensor<4x16xi32>) -> (tensor<4x16xf32>, tensor<4x16xi32>) {
  %r = linalg.contract indexing_maps = [#c_a, #c_bt, #c_c]
         ins(%a, %bt : tensor<4x8xf32>, tensor<16x8xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
  %u = linalg.contract indexing_maps = [#c_a, #c_bt, #c_c] {cast = #linalg.type_fn<cast_unsigned>}
         ins(%qa, %qbt : tensor<4x8xi8>, tensor<16x8xi8>) outs(%qc : tensor<4x16xi32>) -> tensor<4x16xi32>
  return %r, %u : tensor<4x16xf32>, tensor<4x16xi32>
}

// -----

// Quantized on buffers: the product accumulates into C, then C's rows lose
// zb * rowsum(A) and its columns za * colsum(B) - K za zb, with no temporary.
// CHECK-LABEL: func.func @quantized_on_memrefs
// CHECK-SAME:    %[[A:.*]]: memref<4x8xi8>, %[[B:.*]]: memref<8x16xi8>, %[[C:.*]]: memref<4x16xi32>, %[[ZA:.*]]: i32, %[[ZB:.*]]: i32
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[M:.*]] = arith.constant 4 : index
// CHECK-DAG:     %[[KI:.*]] = arith.constant 8 : index
// CHECK-DAG:     %[[N:.*]] = arith.constant 16 : index
// CHECK-DAG:     %[[K:.*]] = arith.constant 8 : i32
// CHECK-NOT:     memref.alloc
// CHECK:         mips.matmul ins(%[[A]], %[[B]] : memref<4x8xi8>, memref<8x16xi8>) outs(%[[C]] : memref<4x16xi32>)
// CHECK:         scf.for %[[I:[^ ]+]] = %[[ZERO]] to %[[M]]
// CHECK:           %[[ROW:.*]] = scf.for %[[L:[^ ]+]] = %[[ZERO]] to %[[KI]] {{.*}} iter_args(%[[ACC:[^ ]+]] = {{.*}}) -> (i32)
// CHECK:             memref.load %[[A]][%[[I]], %[[L]]]
// CHECK:           %[[T:.*]] = arith.muli %[[ZB]], %[[ROW]]
// CHECK:           scf.for %[[J:[^ ]+]] = %[[ZERO]] to %[[N]]
// CHECK:             %[[OLD:.*]] = memref.load %[[C]][%[[I]], %[[J]]]
// CHECK:             %[[NEW:.*]] = arith.subi %[[OLD]], %[[T]]
// CHECK:             memref.store %[[NEW]], %[[C]][%[[I]], %[[J]]]
// CHECK:         %[[ZZ:.*]] = arith.muli %[[ZA]], %[[ZB]]
// CHECK:         %[[KZZ:.*]] = arith.muli %[[ZZ]], %[[K:.*]] : i32
// CHECK:         scf.for %[[J2:[^ ]+]] = %[[ZERO]] to %[[N]]
// CHECK:           %[[COL:.*]] = scf.for %[[L2:[^ ]+]] = %[[ZERO]] to %[[KI]]
// CHECK:             memref.load %[[B]][%[[L2]], %[[J2]]]
// CHECK:           %[[ZAC:.*]] = arith.muli %[[ZA]], %[[COL]]
// CHECK:           %[[T2:.*]] = arith.subi %[[ZAC]], %[[KZZ]]
// CHECK:           scf.for %[[I2:[^ ]+]] = %[[ZERO]] to %[[M]]
// CHECK:             %[[OLD2:.*]] = memref.load %[[C]][%[[I2]], %[[J2]]]
// CHECK:             arith.subi %[[OLD2]], %[[T2]]
// CHECK-NOT:     memref.alloc
func.func @quantized_on_memrefs(%a: memref<4x8xi8>, %b: memref<8x16xi8>, %c: memref<4x16xi32>, %za: i32, %zb: i32) {
  linalg.quantized_matmul ins(%a, %b, %za, %zb : memref<4x8xi8>, memref<8x16xi8>, i32, i32) outs(%c : memref<4x16xi32>)
  return
}

// -----

// Memrefs whose layout has no strides stay loops: libmips needs (offset, strides).
#perm = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-LABEL: func.func @unstrided_layout
// CHECK-NOT:     mips.matmul
// CHECK:         linalg.matmul
func.func @unstrided_layout(%a: memref<4x8xf32, #perm>, %b: memref<8x16xf32>, %c: memref<4x16xf32>) {
  linalg.matmul ins(%a, %b : memref<4x8xf32, #perm>, memref<8x16xf32>) outs(%c : memref<4x16xf32>)
  return
}

// -----

// ... nor do memrefs in another memory space: libmips takes plain pointers.
// CHECK-LABEL: func.func @other_memory_space
// CHECK-NOT:     mips.matmul
// CHECK:         linalg.matmul
func.func @other_memory_space(%a: memref<4x8xf32, 1>, %b: memref<8x16xf32>, %c: memref<4x16xf32>) {
  linalg.matmul ins(%a, %b : memref<4x8xf32, 1>, memref<8x16xf32>) outs(%c : memref<4x16xf32>)
  return
}

// -----

// A quantized batch on buffers: the corrections loop over the batch on 2-D
// views of each entry.
// CHECK-LABEL: func.func @quantized_batch_on_memrefs
// CHECK-SAME:    %[[A:[^:]+]]: memref<2x4x8xi8>, %[[B:[^:]+]]: memref<2x8x16xi8>, %[[C:[^:]+]]: memref<2x4x16xi32>
// CHECK-NOT:     memref.alloc
// CHECK:         mips.batch_matmul
// CHECK:         scf.for %[[P:[^ ]+]] =
// CHECK-DAG:       %[[SA:.*]] = memref.subview %[[A]][%[[P]], 0, 0] [1, 4, 8] [1, 1, 1]
// CHECK-DAG:       %[[SC:.*]] = memref.subview %[[C]][%[[P]], 0, 0] [1, 4, 16] [1, 1, 1]
// CHECK:           scf.for
// CHECK:             memref.load %[[SA]]
// CHECK:               memref.store %{{.*}}, %[[SC]]
// CHECK-NOT:     memref.alloc
func.func @quantized_batch_on_memrefs(%a: memref<2x4x8xi8>, %b: memref<2x8x16xi8>, %c: memref<2x4x16xi32>, %zb: i8) {
  %za = arith.constant 0 : i8
  linalg.quantized_batch_matmul ins(%a, %b, %za, %zb : memref<2x4x8xi8>, memref<2x8x16xi8>, i8, i8) outs(%c : memref<2x4x16xi32>)
  return
}

// -----

// A statically empty batch product is its init: the zero fill, or C unchanged; on
// buffers nothing is left to do. (Batch slices of a 0 extent would be called out of
// bounds by upstream's verifier.)
// CHECK-LABEL: func.func @empty_batch_k
// CHECK-NOT:     mips.matmul
// CHECK:         %[[F:.*]] = linalg.fill
// CHECK-NEXT:    return %[[F]]
// CHECK-LABEL: func.func @empty_batch_m_accumulate
// CHECK-SAME:    %[[C:[a-z0-9]+]]: tensor<2x0x5xf32>
// CHECK-NEXT:    return %[[C]]
// CHECK-LABEL: func.func @empty_batch_buffers
// CHECK-NOT:     mips.matmul
// CHECK-NOT:     linalg.batch_matmul
// CHECK:         return
func.func @empty_batch_k(%a: tensor<3x4x0xf32>, %b: tensor<3x0x16xf32>) -> tensor<3x4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x4x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<3x4x16xf32>) -> tensor<3x4x16xf32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<3x4x0xf32>, tensor<3x0x16xf32>) outs(%f : tensor<3x4x16xf32>) -> tensor<3x4x16xf32>
  return %r : tensor<3x4x16xf32>
}
func.func @empty_batch_m_accumulate(%a: tensor<2x0x3xf32>, %b: tensor<2x3x5xf32>, %c: tensor<2x0x5xf32>) -> tensor<2x0x5xf32> {
  %r = linalg.batch_matmul ins(%a, %b : tensor<2x0x3xf32>, tensor<2x3x5xf32>) outs(%c : tensor<2x0x5xf32>) -> tensor<2x0x5xf32>
  return %r : tensor<2x0x5xf32>
}
func.func @empty_batch_buffers(%a: memref<?x4x0xi8>, %b: memref<?x0x16xi8>, %c: memref<?x4x16xi32>) {
  linalg.batch_matmul ins(%a, %b : memref<?x4x0xi8>, memref<?x0x16xi8>) outs(%c : memref<?x4x16xi32>)
  return
}

// -----

// A linalg.transpose feeding an operand (PyTorch's Linear: x * W^T) is the
// operand's transpose flag, flipped: libmips reads W through its strides, and the
// transpose (a copy of the weights on every call) is gone. A transpose already
// described by the maps flips back; a batch operand's last two dims likewise; any
// other permutation stays a transpose.
// CHECK-LABEL: func.func @transpose_producers
// CHECK-SAME:    %[[X:[^:]*]]: tensor<2x8xf32>, %[[W:[^:]*]]: tensor<16x8xf32>, %[[C:[^:]*]]: tensor<2x16xf32>, %[[X2:[^:]*]]: tensor<2x16xf32>
// CHECK-NOT:     linalg.transpose
// CHECK:         mips.matmul transpose_rhs ins(%[[X]], %[[W]] : tensor<2x8xf32>, tensor<16x8xf32>)
// CHECK:         mips.matmul ins(%[[X2]], %[[W]] : tensor<2x16xf32>, tensor<16x8xf32>) outs(%{{.*}} : tensor<2x8xf32>)
func.func @transpose_producers(%x: tensor<2x8xf32>, %w: tensor<16x8xf32>, %c: tensor<2x16xf32>,
                               %x2: tensor<2x16xf32>, %c2: tensor<2x8xf32>) -> (tensor<2x16xf32>, tensor<2x8xf32>) {
  %e = tensor.empty() : tensor<8x16xf32>
  %wt = linalg.transpose ins(%w : tensor<16x8xf32>) outs(%e : tensor<8x16xf32>) permutation = [1, 0]
  %r = linalg.matmul ins(%x, %wt : tensor<2x8xf32>, tensor<8x16xf32>) outs(%c : tensor<2x16xf32>) -> tensor<2x16xf32>
  // (x * (W^T)^T with the outer transpose in the maps) = x * W
  %r2 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x2, %wt : tensor<2x16xf32>, tensor<8x16xf32>) outs(%c2 : tensor<2x8xf32>) -> tensor<2x8xf32>
  return %r, %r2 : tensor<2x16xf32>, tensor<2x8xf32>
}

// -----

// CHECK-LABEL: func.func @batch_transpose_producers
// CHECK-SAME:    %[[A:[^:]*]]: tensor<3x4x8xf32>, %[[B:[^:]*]]: tensor<3x5x8xf32>
// CHECK:         mips.batch_matmul transpose_rhs ins(%[[A]], %[[B]] : tensor<3x4x8xf32>, tensor<3x5x8xf32>)
// CHECK:         linalg.transpose ins(%{{.*}} : tensor<3x4x8xf32>) outs(%{{.*}} : tensor<4x3x8xf32>) permutation = [1, 0, 2]
func.func @batch_transpose_producers(%a: tensor<3x4x8xf32>, %b: tensor<3x5x8xf32>, %c: tensor<3x4x5xf32>,
                                     %o: tensor<4x3x8xf32>) -> (tensor<3x4x5xf32>, tensor<4x3x8xf32>) {
  %e = tensor.empty() : tensor<3x8x5xf32>
  %bt = linalg.transpose ins(%b : tensor<3x5x8xf32>) outs(%e : tensor<3x8x5xf32>) permutation = [0, 2, 1]
  %r = linalg.batch_matmul ins(%a, %bt : tensor<3x4x8xf32>, tensor<3x8x5xf32>) outs(%c : tensor<3x4x5xf32>) -> tensor<3x4x5xf32>
  %p = linalg.transpose ins(%a : tensor<3x4x8xf32>) outs(%o : tensor<4x3x8xf32>) permutation = [1, 0, 2]
  return %r, %p : tensor<3x4x5xf32>, tensor<4x3x8xf32>
}
