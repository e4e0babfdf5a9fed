// RUN: mips-opt %s -split-input-file --convert-linalg-to-mips | FileCheck %s

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

// CHECK-LABEL: func.func @memref_left_alone
// CHECK:         linalg.matmul ins(%{{.*}}, %{{.*}} : memref<4x8xf32>, memref<8x16xf32>) outs(%{{.*}} : memref<4x16xf32>)
func.func @memref_left_alone(%a: memref<4x8xf32>, %b: memref<8x16xf32>, %c: memref<4x16xf32>) {
  linalg.matmul ins(%a, %b : memref<4x8xf32>, memref<8x16xf32>) outs(%c : memref<4x16xf32>)
  return
}
