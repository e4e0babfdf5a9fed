// RUN: mips-opt %s -split-input-file --mips-drop-padding-only-taps --convert-conv-to-matmul=scalable-lanes=2 --canonicalize | FileCheck %s
// RUN: mips-opt %s -split-input-file --mips-drop-padding-only-taps --convert-conv-to-matmul=scalable-lanes=2 --mips-raise-contractions --mips-decompose-quantized-matmuls --convert-linalg-to-mips | FileCheck %s --check-prefix=MIPS

// With scalable-lanes, an NHWC patch row (KW*C = 12 floats, contiguous in the input
// and in the patches) moves in vectors of 2 x vscale floats (one register), in one of
// three loop nests chosen once by the step (VLEN): a row longer than a register and
// at most two is one masked group of two ([4]xf32); a longer one moves in whole
// registers for every output column, then the row's last whole register (at 12 -
// step, overlapping the one before); a shorter one is one masked register. The input
// is read as rows of W*C elements; output column ow starts at element ow * stride * C
// = 8 ow. A masked read's lanes past the row are poison.
// CHECK-LABEL: func.func @stride2
// CHECK-SAME:    %[[X:[a-z0-9]+]]: tensor<1x9x9x4xf32>
// CHECK-DAG:     %[[C8:.*]] = arith.constant 8 : index
// CHECK-DAG:     %[[POISON:.*]] = ub.poison : f32
// CHECK-DAG:     %[[C12:.*]] = arith.constant 12 : index
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0 : index
// CHECK:         %[[ROWS:.*]] = tensor.collapse_shape %[[X]] {{\[}}[0], [1], [2, 3]] : tensor<1x9x9x4xf32> into tensor<1x9x36xf32>
// CHECK:         %[[VSCALE:.*]] = vector.vscale
// CHECK:         %[[STEP:.*]] = arith.muli %[[VSCALE]], %[[C2]] : index
// CHECK:         %[[REST:.*]] = arith.remui %[[C12]], %[[STEP]] : index
// CHECK:         %[[WHOLE:.*]] = arith.subi %[[C12]], %[[REST]] : index
// CHECK:         %[[PARTIAL:.*]] = arith.cmpi ne, %[[REST]]
// CHECK:         %[[LONG:.*]] = arith.cmpi ule, %[[STEP]], %[[C12]] : index
// CHECK:         %[[BEYOND_ONE:.*]] = arith.cmpi ult, %[[STEP]], %[[C12]] : index
// CHECK:         %[[TWO:.*]] = arith.addi %[[STEP]], %[[STEP]] : index
// CHECK:         %[[WITHIN_TWO:.*]] = arith.cmpi uge, %[[TWO]], %[[C12]] : index
// CHECK:         %[[PAIR:.*]] = arith.andi %[[BEYOND_ONE]], %[[WITHIN_TWO]] : i1
// CHECK:         %[[LAST:.*]] = arith.subi %[[C12]], %[[STEP]] : index
// CHECK:         %[[MASK:.*]] = vector.create_mask %[[C12]] : vector<[2]xi1>
// CHECK:         %[[PAIR_MASK:.*]] = vector.create_mask %[[C12]] : vector<[4]xi1>
// CHECK:         scf.if %[[LONG]]
// CHECK:           scf.if %[[PAIR]]
// CHECK:             scf.for %[[OH:[a-z0-9]+]] =
// CHECK:               scf.for %[[KH:[a-z0-9]+]] =
// CHECK:                 scf.for %[[OW:[a-z0-9]+]] =
// CHECK:                   %[[P0:.*]] = arith.muli %[[OH]], %[[C2]] : index
// CHECK:                   %[[PROW:.*]] = arith.addi %[[P0]], %[[KH]] : index
// CHECK:                   %[[PFROM:.*]] = arith.muli %[[OW]], %[[C8]] : index
// CHECK:                   %[[V:.*]] = vector.transfer_read %[[ROWS]][%[[ZERO]], %[[PROW]], %[[PFROM]]], %[[POISON]], %[[PAIR_MASK]] {in_bounds = [true]} : tensor<1x9x36xf32>, vector<[4]xf32>
// CHECK:                   vector.transfer_write %[[V]], %{{.*}}[%[[ZERO]], %[[OH]], %[[OW]], %[[KH]], %[[ZERO]]], %[[PAIR_MASK]] {in_bounds = [true]} : vector<[4]xf32>, tensor<1x4x4x3x12xf32>
// CHECK:           } else {
// CHECK:             scf.for %[[OH:[a-z0-9]+]] =
// CHECK:               scf.for %[[KH:[a-z0-9]+]] =
// CHECK:                 %[[VECTORS:.*]] = scf.for %[[AT:[a-z0-9]+]] = %{{.*}} to %[[WHOLE]] step %[[STEP]]
// CHECK:                   scf.for %[[OW:[a-z0-9]+]] =
// CHECK:                     %[[R0:.*]] = arith.muli %[[OH]], %[[C2]] : index
// CHECK:                     %[[ROW:.*]] = arith.addi %[[R0]], %[[KH]] : index
// CHECK:                     %[[C0:.*]] = arith.muli %[[OW]], %[[C8]] : index
// CHECK:                     %[[FROM:.*]] = arith.addi %[[C0]], %[[AT]] : index
// CHECK:                     %[[V:.*]] = vector.transfer_read %[[ROWS]][%{{.*}}, %[[ROW]], %[[FROM]]], %{{.*}} {in_bounds = [true]} : tensor<1x9x36xf32>, vector<[2]xf32>
// CHECK:                     vector.transfer_write %[[V]], %{{.*}}[%{{.*}}, %[[OH]], %[[OW]], %[[KH]], %[[AT]]] {in_bounds = [true]} : vector<[2]xf32>, tensor<1x4x4x3x12xf32>
// CHECK:                 scf.if %[[PARTIAL]]
// CHECK:                   scf.for
// CHECK:                     vector.transfer_read %[[ROWS]]{{.*}} {in_bounds = [true]} : tensor<1x9x36xf32>, vector<[2]xf32>
// CHECK:                     vector.transfer_write %{{.*}}[%{{.*}}, %[[OH]], %{{.*}}, %[[KH]], %[[LAST]]] {in_bounds = [true]}
// CHECK:         } else {
// CHECK:           scf.for %[[OH:[a-z0-9]+]] =
// CHECK:             scf.for %[[KH:[a-z0-9]+]] =
// CHECK:               scf.for %[[OW:[a-z0-9]+]] =
// CHECK:                 vector.transfer_read %[[ROWS]]{{.*}}, %[[POISON]], %[[MASK]] {in_bounds = [true]} : tensor<1x9x36xf32>, vector<[2]xf32>
// CHECK:                 vector.transfer_write %{{.*}}[%[[ZERO]], %[[OH]], %[[OW]], %[[KH]], %[[ZERO]]], %[[MASK]] {in_bounds = [true]}
// CHECK:         tensor.collapse_shape %{{.*}} {{\[}}[0, 1, 2], [3, 4]] : tensor<1x4x4x3x12xf32> into tensor<16x36xf32>
// MIPS-LABEL: func.func @stride2
// MIPS:         mips.matmul ins(%{{.*}}, %{{.*}} : tensor<16x36xf32>, tensor<36x5xf32>)
func.func @stride2(%x: tensor<1x9x9x4xf32>, %w: tensor<3x3x4x5xf32>, %o: tensor<1x4x4x5xf32>) -> tensor<1x4x4x5xf32> {
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
         ins(%x, %w : tensor<1x9x9x4xf32>, tensor<3x3x4x5xf32>) outs(%o : tensor<1x4x4x5xf32>) -> tensor<1x4x4x5xf32>
  return %r : tensor<1x4x4x5xf32>
}

// -----

// int8 patches move as many bytes as the lanes hold 32-bit elements: [8]xi8.
// CHECK-LABEL: func.func @quantized
// CHECK:         vector.create_mask %{{.*}} : vector<[8]xi1>
// CHECK:         vector.transfer_read {{.*}} : tensor<1x6x48xi8>, vector<[8]xi8>
// MIPS-LABEL: func.func @quantized
// MIPS:         mips.matmul
func.func @quantized(%x: tensor<1x6x6x8xi8>, %w: tensor<3x3x8x4xi8>, %o: tensor<1x4x4x4xi32>,
                     %zx: i32, %zw: i32) -> tensor<1x4x4x4xi32> {
  %r = linalg.conv_2d_nhwc_hwcf_q {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w, %zx, %zw : tensor<1x6x6x8xi8>, tensor<3x3x8x4xi8>, i32, i32)
         outs(%o : tensor<1x4x4x4xi32>) -> tensor<1x4x4x4xi32>
  return %r : tensor<1x4x4x4xi32>
}

// -----

// A dilated row is not contiguous: fixed vectors of C channels, as without the option.
// CHECK-LABEL: func.func @dilated
// CHECK-NOT:     vector.vscale
// CHECK:         vector.transfer_read {{.*}} : tensor<1x12x14x2xf32>, vector<2xf32>
func.func @dilated(%x: tensor<1x12x14x2xf32>, %w: tensor<3x3x2x5xf32>, %o: tensor<1x3x4x5xf32>) -> tensor<1x3x4x5xf32> {
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<3> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
         ins(%x, %w : tensor<1x12x14x2xf32>, tensor<3x3x2x5xf32>) outs(%o : tensor<1x3x4x5xf32>) -> tensor<1x3x4x5xf32>
  return %r : tensor<1x3x4x5xf32>
}

// -----

// NCHW rows of 8 output columns or more (here 9, unit column stride) move the same
// way: per image, channel and tap, each vector of the row for every output row.
// CHECK-LABEL: func.func @nchw
// CHECK:         %[[STEP:.*]] = arith.muli %{{.*}}, %{{.*}} : index
// CHECK:         scf.for %[[C:[a-z0-9]+]] =
// CHECK:           scf.for %[[KH:[a-z0-9]+]] =
// CHECK:             scf.for %[[KW:[a-z0-9]+]] =
// CHECK:               scf.for %[[AT:[a-z0-9]+]] = %{{.*}} step %[[STEP]]
// CHECK:                 scf.for %[[OH:[a-z0-9]+]] =
// CHECK:                   %[[ROW:.*]] = arith.addi %[[OH]], %[[KH]] : index
// CHECK:                   %[[COL:.*]] = arith.addi %[[KW]], %[[AT]] : index
// CHECK:                   vector.transfer_read %{{.*}}[%{{.*}}, %[[C]], %[[ROW]], %[[COL]]], %{{.*}} {in_bounds = [true]} : tensor<1x3x6x11xf32>, vector<[2]xf32>
// CHECK:                   vector.transfer_write %{{.*}}[%{{.*}}, %[[C]], %[[KH]], %[[KW]], %[[OH]], %[[AT]]] {in_bounds = [true]} : vector<[2]xf32>, tensor<1x3x3x3x4x9xf32>
func.func @nchw(%x: tensor<1x3x6x11xf32>, %w: tensor<5x3x3x3xf32>, %o: tensor<1x5x4x9xf32>) -> tensor<1x5x4x9xf32> {
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x3x6x11xf32>, tensor<5x3x3x3xf32>) outs(%o : tensor<1x5x4x9xf32>) -> tensor<1x5x4x9xf32>
  return %r : tensor<1x5x4x9xf32>
}

// -----

// Shorter rows keep a fixed vector: one register at any VLEN.
// CHECK-LABEL: func.func @nchw_short_rows
// CHECK-NOT:     vector.vscale
// CHECK:         vector.transfer_read {{.*}} : tensor<1x3x6x6xf32>, vector<4xf32>
func.func @nchw_short_rows(%x: tensor<1x3x6x6xf32>, %w: tensor<5x3x3x3xf32>, %o: tensor<1x5x4x4xf32>) -> tensor<1x5x4x4xf32> {
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x3x6x6xf32>, tensor<5x3x3x3xf32>) outs(%o : tensor<1x5x4x4xf32>) -> tensor<1x5x4x4xf32>
  return %r : tensor<1x5x4x4xf32>
}
