// RUN: mips-opt %s -split-input-file --convert-mips-to-libmips="pack-constant-weights=true" | FileCheck %s
// RUN: mips-opt %s -split-input-file --convert-mips-to-libmips | FileCheck %s --check-prefix=PLAIN

// A B that is a constant global is packed once: the runtime's packed_b_f32 returns the
// handle it keeps in a slot global (one per packed matrix: weights, view and
// orientation, shared by the calls that use it), and the call is the packed one, (m, A, handle, C, flags).
// The module needs libmips ABI 1.2.
// CHECK:       module attributes {mips.libmips_abi_minor = 2 : i32}
// CHECK-DAG:   memref.global "private" @__mips_packed_weights : memref<1xi64> = dense<0>
// CHECK-DAG:   memref.global "private" @__mips_packed_weights_t : memref<1xi64> = dense<0>
// CHECK-DAG:   func.func private @__mips_rt_v1_2_common_packed_b_f32(memref<i64>, i64, i64, memref<f32>, i64, i64, i64) -> !llvm.ptr attributes {llvm.bareptr}
// CHECK-DAG:   func.func private @mips_matmul_packed_f32(i64, memref<f32>, i64, i64, i64, !llvm.ptr, memref<f32>, i64, i64, i64, i32) -> i32 attributes {llvm.bareptr}
// CHECK-LABEL: func.func @by_weights
// CHECK:         %[[W:.*]] = memref.get_global @weights
// CHECK:         %[[WBASE:.*]], %[[WOFF:.*]], %{{.*}}:2, %[[WSTR:.*]]:2 = memref.extract_strided_metadata %[[W]]
// CHECK:         %[[SLOT:.*]] = memref.get_global @__mips_packed_weights : memref<1xi64>
// CHECK:         %[[SLOTBASE:.*]], %{{.*}}, %{{.*}}, %{{.*}} = memref.extract_strided_metadata %[[SLOT]]
// CHECK:         %[[HANDLE:.*]] = call @__mips_rt_v1_2_common_packed_b_f32(%[[SLOTBASE]], %{{.*}}, %{{.*}}, %[[WBASE]],
// CHECK:         call @mips_matmul_packed_f32(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[HANDLE]],
// CHECK:         memref.get_global @__mips_packed_weights : memref<1xi64>
// CHECK:         call @mips_matmul_packed_f32(
// CHECK:         memref.get_global @__mips_packed_weights_t : memref<1xi64>
// CHECK:         call @mips_matmul_packed_f32(
// A B that is not constant is passed as before.
// CHECK:         call @mips_matmul_f32(
// Without the option, every call is the plain one, and ABI 1.0 suffices.
// PLAIN-NOT:     mips.libmips_abi_minor
// PLAIN-NOT:     mips.packed_weights
// PLAIN-NOT:     mips_matmul_packed
// PLAIN-NOT:     packed_b_
memref.global "private" constant @weights : memref<8x8xf32> = dense<1.0>
memref.global "private" @mutable : memref<8x8xf32> = dense<1.0>
func.func @by_weights(%a: memref<1x8xf32>, %c: memref<1x8xf32>) {
  %w = memref.get_global @weights : memref<8x8xf32>
  mips.matmul overwrite ins(%a, %w : memref<1x8xf32>, memref<8x8xf32>) outs(%c : memref<1x8xf32>)
  mips.matmul ins(%a, %w : memref<1x8xf32>, memref<8x8xf32>) outs(%c : memref<1x8xf32>)
  mips.matmul transpose_rhs ins(%a, %w : memref<1x8xf32>, memref<8x8xf32>) outs(%c : memref<1x8xf32>)
  %m = memref.get_global @mutable : memref<8x8xf32>
  mips.matmul ins(%a, %m : memref<1x8xf32>, memref<8x8xf32>) outs(%c : memref<1x8xf32>)
  return
}

// -----

// Constant weights as A with a narrow product (n < m: a 1x1 convolution over one pixel,
// NCHW) run as C^T = B^T * A^T: A^T is the packed B, read from A with its strides
// swapped (k = 4, n = 8, strides (1, 4)), and B^T and C^T are the call's A and C, their
// strides swapped too. Views of a global (reshapes, subviews) with a static layout are
// constant weights as well; a view other than the whole global names its layout in the
// slot's name.
// CHECK-DAG:   memref.global "private" @__mips_packed_filters_t : memref<1xi64> = dense<0>
// CHECK-DAG:   memref.global "private" @__mips_packed_filters_at1_8s4_2s1_t : memref<1xi64> = dense<0>
// CHECK-LABEL: func.func @by_filters
// CHECK-SAME:    (%[[X:.*]]: memref<4x1xf32>, %[[Y:.*]]: memref<8x1xf32>
// CHECK:         %[[W:.*]] = memref.get_global @filters
// CHECK:         %[[WBASE:.*]], %{{.*}}, %[[WSIZE:.*]]:2, %[[WSTR:.*]]:2 = memref.extract_strided_metadata %[[W]]
// CHECK:         %[[WS0:.*]] = arith.index_cast %[[WSTR]]#0
// CHECK:         %[[WS1:.*]] = arith.index_cast %[[WSTR]]#1
// CHECK:         %[[XBASE:.*]], %{{.*}}, %[[XSIZE:.*]]:2, %[[XSTR:.*]]:2 = memref.extract_strided_metadata %[[X]]
// CHECK:         %[[XS0:.*]] = arith.index_cast %[[XSTR]]#0
// CHECK:         %[[XS1:.*]] = arith.index_cast %[[XSTR]]#1
// CHECK:         %[[YBASE:.*]], %{{.*}}, %{{.*}}:2, %[[YSTR:.*]]:2 = memref.extract_strided_metadata %[[Y]]
// CHECK:         %[[YS0:.*]] = arith.index_cast %[[YSTR]]#0
// CHECK:         %[[YS1:.*]] = arith.index_cast %[[YSTR]]#1
// m = X's columns, k = X's rows, n = W's rows.
// CHECK:         %[[M:.*]] = arith.index_cast %[[XSIZE]]#1
// CHECK:         %[[K:.*]] = arith.index_cast %[[XSIZE]]#0
// CHECK:         %[[N:.*]] = arith.index_cast %[[WSIZE]]#0
// CHECK:         %[[SLOT:.*]] = memref.get_global @__mips_packed_filters_t : memref<1xi64>
// CHECK:         %[[SLOTBASE:.*]], %{{.*}}, %{{.*}}, %{{.*}} = memref.extract_strided_metadata %[[SLOT]]
// CHECK:         %[[HANDLE:.*]] = call @__mips_rt_v1_2_common_packed_b_f32(%[[SLOTBASE]], %[[K]], %[[N]], %[[WBASE]], %{{.*}}, %[[WS1]], %[[WS0]])
// CHECK:         call @mips_matmul_packed_f32(%[[M]], %[[XBASE]], %{{.*}}, %[[XS1]], %[[XS0]], %[[HANDLE]], %[[YBASE]], %{{.*}}, %[[YS1]], %[[YS0]], %{{.*}})
// The view: rows 0..7, columns 1..2 of the filters.
// CHECK:         memref.get_global @__mips_packed_filters_at1_8s4_2s1_t : memref<1xi64>
// CHECK:         call @mips_matmul_packed_f32(
// A product as wide as A is tall keeps its orientation: no packing.
// CHECK:         call @mips_matmul_f32(
// A view whose offset changes from call to call is not constant weights.
// CHECK:         call @mips_matmul_f32(
memref.global "private" constant @filters : memref<8x4xf32> = dense<1.0>
func.func @by_filters(%x: memref<4x1xf32>, %y: memref<8x1xf32>, %x2: memref<2x1xf32>,
                      %wide: memref<4x8xf32>, %y8: memref<8x8xf32>, %at: index) {
  %w = memref.get_global @filters : memref<8x4xf32>
  mips.matmul ins(%w, %x : memref<8x4xf32>, memref<4x1xf32>) outs(%y : memref<8x1xf32>)
  %view = memref.subview %w[0, 1] [8, 2] [1, 1] : memref<8x4xf32> to memref<8x2xf32, strided<[4, 1], offset: 1>>
  mips.matmul ins(%view, %x2 : memref<8x2xf32, strided<[4, 1], offset: 1>>, memref<2x1xf32>) outs(%y : memref<8x1xf32>)
  mips.matmul ins(%w, %wide : memref<8x4xf32>, memref<4x8xf32>) outs(%y8 : memref<8x8xf32>)
  %moving = memref.subview %w[0, %at] [8, 2] [1, 1] : memref<8x4xf32> to memref<8x2xf32, strided<[4, 1], offset: ?>>
  mips.matmul ins(%moving, %x2 : memref<8x2xf32, strided<[4, 1], offset: ?>>, memref<2x1xf32>) outs(%y : memref<8x1xf32>)
  return
}

// -----

// int8 filters reshaped (a 1x1 convolution's) pack the same way, as packed_b_i8. A
// symbol that has a slot's name gets the slot renamed, never shared.
// CHECK:       module attributes {mips.libmips_abi_minor = 2 : i32}
// CHECK-DAG:   memref.global "private" @__mips_packed_qfilters_at0_8s4_4s1_t_1 : memref<1xi64> = dense<0> {mips.packed_weights = [@qfilters
// CHECK-DAG:   memref.global "private" @__mips_packed_qfilters_at0_8s4_4s1_t : memref<1xi64> = dense<7>
// CHECK-LABEL: func.func @by_int8_filters
// CHECK:         memref.get_global @__mips_packed_qfilters_at0_8s4_4s1_t_1 : memref<1xi64>
// CHECK:         call @__mips_rt_v1_2_common_packed_b_i8(
// CHECK:         call @mips_matmul_packed_i8i32(
memref.global "private" constant @qfilters : memref<8x4x1x1xi8> = dense<1>
memref.global "private" @__mips_packed_qfilters_at0_8s4_4s1_t : memref<1xi64> = dense<7>
func.func @by_int8_filters(%x: memref<4x1xi8>, %y: memref<8x1xi32>) {
  %w = memref.get_global @qfilters : memref<8x4x1x1xi8>
  %flat = memref.collapse_shape %w [[0], [1, 2, 3]] : memref<8x4x1x1xi8> into memref<8x4xi8>
  mips.matmul ins(%flat, %x : memref<8x4xi8>, memref<4x1xi8>) outs(%y : memref<8x1xi32>)
  return
}

// -----

// A batch sharing constant filters, expanded into a call per entry: its entries' packed
// calls make the module record ABI 1.2.
// CHECK:       module attributes {mips.libmips_abi_minor = 2 : i32}
// CHECK-LABEL: func.func @batch_by_filters
// CHECK:         scf.for
// CHECK:           memref.get_global @__mips_packed_filters2_t : memref<1xi64>
// CHECK:           call @mips_matmul_packed_f32(
memref.global "private" constant @filters2 : memref<8x4xf32> = dense<1.0>
func.func @batch_by_filters(%x: memref<2x4x1xf32>, %y: memref<2x8x1xf32>) {
  %w = memref.get_global @filters2 : memref<8x4xf32>
  mips.batch_matmul ins(%w, %x : memref<8x4xf32>, memref<2x4x1xf32>) outs(%y : memref<2x8x1xf32>)
  return
}
