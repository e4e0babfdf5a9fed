// RUN: mips-opt %s --mips-transpose-constant-weights --split-input-file | FileCheck %s

// Constant weights as A (4 x 3) with a product 2 wide: C^T = B^T * A^T, with A^T
// (3 x 4) written into a constant of its own, read in place as B. The old global, now
// unread, is gone.
// CHECK-LABEL: memref.global "private" constant @w_transposed : memref<3x4xf32> = dense_resource<w_transposed>
// CHECK-NOT:   memref.global "private" constant @w :
// CHECK-LABEL: func.func @narrow
// CHECK-SAME:    %[[B:[a-z0-9]+]]: memref<3x2xf32>, %[[C:[a-z0-9]+]]: memref<4x2xf32>
// CHECK-NOT:     memref.get_global @w :
// CHECK:         %[[WT:.*]] = memref.get_global @w_transposed : memref<3x4xf32>
// CHECK:         %[[CT:.*]] = memref.transpose %[[C]] (d0, d1) -> (d1, d0) : memref<4x2xf32> to memref<2x4xf32, strided<[1, 2]>>
// CHECK:         mips.matmul transpose_lhs overwrite ins(%[[B]], %[[WT]] : memref<3x2xf32>, memref<3x4xf32>) outs(%[[CT]] : memref<2x4xf32, strided<[1, 2]>>)
// The blob holds A^T row by row: A = [[1 2 3] [4 5 6] [7 8 9] [10 11 12]].
// CHECK:       w_transposed: "0x08000000
// CHECK-SAME:    0000803F000080400000E04000002041
// CHECK-SAME:    000000400000A0400000004100003041
// CHECK-SAME:    000040400000C0400000104100004041"
memref.global "private" constant @w : memref<4x3xf32> = dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0], [10.0, 11.0, 12.0]]>
func.func @narrow(%b: memref<3x2xf32>, %c: memref<4x2xf32>) {
  %w = memref.get_global @w : memref<4x3xf32>
  mips.matmul overwrite ins(%w, %b : memref<4x3xf32>, memref<3x2xf32>) outs(%c : memref<4x2xf32>)
  return
}

// -----

// A product as wide as A is tall keeps its orientation (its vectors already run
// along the longer side), and so does one whose A is not constant.
// CHECK-LABEL: func.func @wide
// CHECK:         mips.matmul ins(%{{.*}}, %{{.*}} : memref<2x3xf32>, memref<3x2xf32>)
// CHECK-LABEL: func.func @argument
// CHECK:         mips.matmul ins(%{{.*}}, %{{.*}} : memref<4x3xf32>, memref<3x2xf32>)
memref.global "private" constant @square : memref<2x3xf32> = dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]>
func.func @wide(%b: memref<3x2xf32>, %c: memref<2x2xf32>) {
  %w = memref.get_global @square : memref<2x3xf32>
  mips.matmul ins(%w, %b : memref<2x3xf32>, memref<3x2xf32>) outs(%c : memref<2x2xf32>)
  return
}
func.func @argument(%a: memref<4x3xf32>, %b: memref<3x2xf32>, %c: memref<4x2xf32>) {
  mips.matmul ins(%a, %b : memref<4x3xf32>, memref<3x2xf32>) outs(%c : memref<4x2xf32>)
  return
}

// -----

// A static view of the weights (a 3x3 filter's centre tap: every ninth element) is
// transposed from the elements it reads; B stored transposed (transpose_rhs) becomes
// A' as it is stored. The global read elsewhere stays.
// CHECK-LABEL: memref.global "private" constant @f_transposed : memref<2x2xi8> = dense_resource<f_transposed>
// CHECK:       memref.global "private" constant @f : memref<2x2x3x3xi8>
// CHECK-LABEL: func.func @centre_tap
// CHECK:         %[[WT:.*]] = memref.get_global @f_transposed : memref<2x2xi8>
// CHECK:         mips.matmul ins(%{{.*}}, %[[WT]] : memref<1x2xi8>, memref<2x2xi8>) outs(%{{.*}} : memref<1x2xi32, strided<[1, 1]>>)
// CHECK:       f_transposed: "0x08000000
// CHECK-SAME:    04162234"
memref.global "private" constant @f : memref<2x2x3x3xi8> = dense<[[[[0, 0, 0], [0, 4, 0], [0, 0, 0]], [[0, 0, 0], [0, 34, 0], [0, 0, 0]]], [[[0, 0, 0], [0, 22, 0], [0, 0, 0]], [[0, 0, 0], [0, 52, 0], [0, 0, 0]]]]>
func.func @centre_tap(%b: memref<1x2xi8>, %c: memref<2x1xi32>) -> memref<2x2x3x3xi8> {
  %f = memref.get_global @f : memref<2x2x3x3xi8>
  %tap = memref.subview %f[0, 0, 1, 1] [2, 2, 1, 1] [1, 1, 1, 1] : memref<2x2x3x3xi8> to memref<2x2xi8, strided<[18, 9], offset: 4>>
  mips.matmul transpose_rhs ins(%tap, %b : memref<2x2xi8, strided<[18, 9], offset: 4>>, memref<1x2xi8>) outs(%c : memref<2x1xi32>)
  return %f : memref<2x2x3x3xi8>
}

// -----

// Two views of one filter (two taps), each with a copy of its own; the filter, then
// unread, is gone. A public global is kept: another object may read it. A stored
// K x M (transpose_lhs) is already A^T: the copy is the stored data, and C is
// accumulated into (no overwrite).
// CHECK-LABEL: memref.global "private" constant @f_transposed : memref<2x4xf32>
// CHECK:       memref.global "private" constant @f_transposed_0 : memref<2x4xf32>
// CHECK-NOT:   memref.global "private" constant @f :
// CHECK-LABEL: func.func @taps
// CHECK-COUNT-2: mips.matmul transpose_lhs
// CHECK:       memref.global "private" constant @pub_transposed : memref<3x4xf32>
// CHECK:       memref.global constant @pub : memref<4x3xf32>
// CHECK-LABEL: func.func @public
// CHECK:         mips.matmul transpose_lhs overwrite
// CHECK:       memref.global "private" constant @stored_transposed : memref<3x4xf32>
// CHECK-LABEL: func.func @stored_transposed_lhs
// CHECK:         mips.matmul transpose_lhs ins(%{{.*}}, %{{.*}} : memref<3x2xf32>, memref<3x4xf32>) outs(%{{.*}} : memref<2x4xf32, strided<[1, 2]>>)
// CHECK:       stored_transposed: "0x08000000
// CHECK-SAME:    0000803F000000400000404000008040
// CHECK-SAME:    0000A0400000C0400000E04000000041
// CHECK-SAME:    00001041000020410000304100004041"
memref.global "private" constant @f : memref<4x2x1x2xf32> = dense<[[[[1.0, 2.0]], [[3.0, 4.0]]], [[[5.0, 6.0]], [[7.0, 8.0]]], [[[9.0, 10.0]], [[11.0, 12.0]]], [[[13.0, 14.0]], [[15.0, 16.0]]]]>
func.func @taps(%b: memref<2x1xf32>, %c: memref<4x1xf32>) {
  %f = memref.get_global @f : memref<4x2x1x2xf32>
  %t0 = memref.subview %f[0, 0, 0, 0] [4, 2, 1, 1] [1, 1, 1, 1] : memref<4x2x1x2xf32> to memref<4x2xf32, strided<[4, 2]>>
  %t1 = memref.subview %f[0, 0, 0, 1] [4, 2, 1, 1] [1, 1, 1, 1] : memref<4x2x1x2xf32> to memref<4x2xf32, strided<[4, 2], offset: 1>>
  mips.matmul overwrite ins(%t0, %b : memref<4x2xf32, strided<[4, 2]>>, memref<2x1xf32>) outs(%c : memref<4x1xf32>)
  mips.matmul ins(%t1, %b : memref<4x2xf32, strided<[4, 2], offset: 1>>, memref<2x1xf32>) outs(%c : memref<4x1xf32>)
  return
}
memref.global constant @pub : memref<4x3xf32> = dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0], [10.0, 11.0, 12.0]]>
func.func @public(%b: memref<3x2xf32>, %c: memref<4x2xf32>) {
  %w = memref.get_global @pub : memref<4x3xf32>
  mips.matmul overwrite ins(%w, %b : memref<4x3xf32>, memref<3x2xf32>) outs(%c : memref<4x2xf32>)
  return
}
memref.global "private" constant @stored : memref<3x4xf32> = dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0]]>
func.func @stored_transposed_lhs(%b: memref<3x2xf32>, %c: memref<4x2xf32>) {
  %w = memref.get_global @stored : memref<3x4xf32>
  mips.matmul transpose_lhs ins(%w, %b : memref<3x4xf32>, memref<3x2xf32>) outs(%c : memref<4x2xf32>)
  return
}

// -----

// A cast that asserts a layout reaching past the global's data is left alone.
// CHECK-LABEL: func.func @out_of_bounds
// CHECK:         mips.matmul overwrite ins(%{{.*}}, %{{.*}} : memref<4x3xf32, strided<[100000, 1], offset: 5000000>>, memref<3x2xf32>)
memref.global "private" constant @w : memref<4x3xf32> = dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0], [10.0, 11.0, 12.0]]>
func.func @out_of_bounds(%b: memref<3x2xf32>, %c: memref<4x2xf32>) {
  %w = memref.get_global @w : memref<4x3xf32>
  %d = memref.cast %w : memref<4x3xf32> to memref<4x3xf32, strided<[?, ?], offset: ?>>
  %s = memref.cast %d : memref<4x3xf32, strided<[?, ?], offset: ?>> to memref<4x3xf32, strided<[100000, 1], offset: 5000000>>
  mips.matmul overwrite ins(%s, %b : memref<4x3xf32, strided<[100000, 1], offset: 5000000>>, memref<3x2xf32>) outs(%c : memref<4x2xf32>)
  return
}

// -----

// Constant f32 weights as B, stored n x k (a Linear layer's 3 outputs of 2 inputs, one
// token): copied k x n, so that libmips reads rows along n in place; transpose_rhs is
// dropped and C keeps its orientation. The unread original is gone.
// CHECK-LABEL: memref.global "private" constant @linear_transposed : memref<2x3xf32> = dense_resource<linear_transposed>
// CHECK-NOT:   memref.global "private" constant @linear :
// CHECK-LABEL: func.func @linear_token
// CHECK-SAME:    %[[X:[a-z0-9]+]]: memref<1x2xf32>, %[[Y:[a-z0-9]+]]: memref<1x3xf32>
// CHECK:         %[[W:.*]] = memref.get_global @linear_transposed : memref<2x3xf32>
// CHECK:         mips.matmul overwrite ins(%[[X]], %[[W]] : memref<1x2xf32>, memref<2x3xf32>) outs(%[[Y]] : memref<1x3xf32>)
// The blob holds W^T row by row: W = [[1 2] [3 4] [5 6]].
// CHECK:       linear_transposed: "0x08000000
// CHECK-SAME:    0000803F000040400000A040
// CHECK-SAME:    00000040000080400000C040"
memref.global "private" constant @linear : memref<3x2xf32> = dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]>
func.func @linear_token(%x: memref<1x2xf32>, %y: memref<1x3xf32>) {
  %w = memref.get_global @linear : memref<3x2xf32>
  mips.matmul transpose_rhs overwrite ins(%x, %w : memref<1x2xf32>, memref<3x2xf32>) outs(%y : memref<1x3xf32>)
  return
}

// -----

// B already k x n, integer B stored n x k (dot products suit it) and a single column
// are left alone.
// CHECK-LABEL: func.func @rows_along_n
// CHECK:         mips.matmul ins(%{{.*}}, %{{.*}} : memref<1x2xf32>, memref<2x3xf32>)
// CHECK-LABEL: func.func @integer_linear
// CHECK:         mips.matmul transpose_rhs ins(%{{.*}}, %{{.*}} : memref<1x2xi8>, memref<3x2xi8>)
// CHECK-LABEL: func.func @one_column
// CHECK:         mips.matmul transpose_rhs ins(%{{.*}}, %{{.*}} : memref<2x2xf32>, memref<1x2xf32>)
memref.global "private" constant @kn : memref<2x3xf32> = dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]>
func.func @rows_along_n(%x: memref<1x2xf32>, %y: memref<1x3xf32>) {
  %w = memref.get_global @kn : memref<2x3xf32>
  mips.matmul ins(%x, %w : memref<1x2xf32>, memref<2x3xf32>) outs(%y : memref<1x3xf32>)
  return
}
memref.global "private" constant @qlinear : memref<3x2xi8> = dense<[[1, 2], [3, 4], [5, 6]]>
func.func @integer_linear(%x: memref<1x2xi8>, %y: memref<1x3xi32>) {
  %w = memref.get_global @qlinear : memref<3x2xi8>
  mips.matmul transpose_rhs ins(%x, %w : memref<1x2xi8>, memref<3x2xi8>) outs(%y : memref<1x3xi32>)
  return
}
memref.global "private" constant @column : memref<1x2xf32> = dense<[[1.0, 2.0]]>
func.func @one_column(%x: memref<2x2xf32>, %y: memref<2x1xf32>) {
  %w = memref.get_global @column : memref<1x2xf32>
  mips.matmul transpose_rhs ins(%x, %w : memref<2x2xf32>, memref<1x2xf32>) outs(%y : memref<2x1xf32>)
  return
}
