// RUN: mips-opt %s -split-input-file --mips-drop-padding-only-taps --convert-conv-to-matmul | FileCheck %s
// RUN: mips-opt %s -split-input-file --mips-drop-padding-only-taps --convert-conv-to-matmul --mips-raise-contractions --mips-decompose-quantized-matmuls --convert-linalg-to-mips | FileCheck %s --check-prefix=MIPS
// RUN: mips-opt %s -split-input-file --mips-drop-padding-only-taps --convert-conv-to-matmul=im2col-bytes=1200 --mips-raise-contractions --mips-decompose-quantized-matmuls --convert-linalg-to-mips --canonicalize | FileCheck %s --check-prefix=BLOCKS

// A 1x1 NHWC convolution is one matmul on views: N*H*W rows of C channels.
// CHECK-DAG:   #[[A:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG:   #[[B:.*]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-DAG:   #[[C:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @pointwise_hwcf
// CHECK:         %[[X:.*]] = tensor.collapse_shape %{{.*}} {{\[}}[0, 1, 2], [3]] : tensor<2x4x5x8xf32> into tensor<40x8xf32>
// CHECK:         %[[W:.*]] = tensor.collapse_shape %{{.*}} {{\[}}[0, 1, 2], [3]] : tensor<1x1x8x6xf32> into tensor<8x6xf32>
// CHECK:         %[[O:.*]] = tensor.collapse_shape %{{.*}} {{\[}}[0, 1, 2], [3]] : tensor<2x4x5x6xf32> into tensor<40x6xf32>
// CHECK:         %[[P:.*]] = linalg.generic {indexing_maps = [#[[A]], #[[B]], #[[C]]], iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[X]], %[[W]] : tensor<40x8xf32>, tensor<8x6xf32>) outs(%[[O]] : tensor<40x6xf32>)
// CHECK:           arith.mulf
// CHECK:           arith.addf
// CHECK:         tensor.expand_shape %[[P]] {{\[}}[0, 1, 2], [3]] output_shape [2, 4, 5, 6] : tensor<40x6xf32> into tensor<2x4x5x6xf32>
// CHECK-NOT:     linalg.conv_2d
// MIPS-LABEL: func.func @pointwise_hwcf
// MIPS:         mips.matmul ins(%{{.*}}, %{{.*}} : tensor<40x8xf32>, tensor<8x6xf32>)
func.func @pointwise_hwcf(%x: tensor<2x4x5x8xf32>, %w: tensor<1x1x8x6xf32>, %o: tensor<2x4x5x6xf32>) -> tensor<2x4x5x6xf32> {
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<2x4x5x8xf32>, tensor<1x1x8x6xf32>) outs(%o : tensor<2x4x5x6xf32>) -> tensor<2x4x5x6xf32>
  return %r : tensor<2x4x5x6xf32>
}

// -----

// FHWC: the filter is read transposed (B as n x k); int8 into int32 sign-extends.
// CHECK-DAG:   #[[BT:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-LABEL: func.func @pointwise_fhwc_i8
// CHECK:         tensor.collapse_shape %{{.*}} {{\[}}[0], [1, 2, 3]] : tensor<6x1x1x8xi8> into tensor<6x8xi8>
// CHECK:         linalg.generic {indexing_maps = [#{{.*}}, #[[BT]], #{{.*}}]
// CHECK:           arith.extsi
// CHECK:           arith.extsi
// CHECK:           arith.muli
// CHECK:           arith.addi
// MIPS-LABEL: func.func @pointwise_fhwc_i8
// MIPS:         mips.matmul transpose_rhs ins(%{{.*}}, %{{.*}} : tensor<20x8xi8>, tensor<6x8xi8>)
func.func @pointwise_fhwc_i8(%x: tensor<1x4x5x8xi8>, %w: tensor<6x1x1x8xi8>, %o: tensor<1x4x5x6xi32>) -> tensor<1x4x5x6xi32> {
  %r = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x4x5x8xi8>, tensor<6x1x1x8xi8>) outs(%o : tensor<1x4x5x6xi32>) -> tensor<1x4x5x6xi32>
  return %r : tensor<1x4x5x6xi32>
}

// -----

// A 3x3 NHWC kernel with strides and dilations: the patches are copied a vector of
// channels at a time, from input row oh*2 + kh*3 and column ow*2 + kw*3; then one
// matmul of N*OH*OW rows.
// CHECK-LABEL: func.func @strided_dilated_hwcf
// CHECK-SAME:    %[[X:[a-z0-9]+]]: tensor<1x12x14x2xf32>
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[C3:.*]] = arith.constant 3 : index
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<1x3x4x3x3x2xf32>
// CHECK:         %[[PATCHES:.*]] = scf.for %[[N:.*]] = {{.*}} iter_args(%{{.*}} = %[[E]])
// CHECK:           scf.for %[[OH:[a-z0-9]+]] =
// CHECK:             scf.for %[[OW:[a-z0-9]+]] =
// CHECK:               scf.for %[[KH:[a-z0-9]+]] =
// CHECK:                 scf.for %[[KW:[a-z0-9]+]] = {{.*}} iter_args(%[[ACC:.*]] = %{{.*}})
// CHECK:                   %[[R0:.*]] = arith.muli %[[OH]], %[[C2]] : index
// CHECK:                   %[[R1:.*]] = arith.muli %[[KH]], %[[C3]] : index
// CHECK:                   %[[ROW:.*]] = arith.addi %[[R0]], %[[R1]] : index
// CHECK:                   %[[Q0:.*]] = arith.muli %[[OW]], %[[C2]] : index
// CHECK:                   %[[Q1:.*]] = arith.muli %[[KW]], %[[C3]] : index
// CHECK:                   %[[COL:.*]] = arith.addi %[[Q0]], %[[Q1]] : index
// CHECK:                   %[[CHANNELS:.*]] = vector.transfer_read %[[X]][%[[N]], %[[ROW]], %[[COL]], %{{.*}}], %{{.*}} {in_bounds = [true]} : tensor<1x12x14x2xf32>, vector<2xf32>
// CHECK:                   vector.transfer_write %[[CHANNELS]], %[[ACC]][%[[N]], %[[OH]], %[[OW]], %[[KH]], %[[KW]], %{{.*}}] {in_bounds = [true]} : vector<2xf32>, tensor<1x3x4x3x3x2xf32>
// CHECK:         tensor.collapse_shape %[[PATCHES]] {{\[}}[0, 1, 2], [3, 4, 5]] : tensor<1x3x4x3x3x2xf32> into tensor<12x18xf32>
// CHECK:         tensor.collapse_shape %{{.*}} {{\[}}[0, 1, 2], [3]] : tensor<3x3x2x5xf32> into tensor<18x5xf32>
// MIPS-LABEL: func.func @strided_dilated_hwcf
// MIPS:         mips.matmul ins(%{{.*}}, %{{.*}} : tensor<12x18xf32>, tensor<18x5xf32>)
func.func @strided_dilated_hwcf(%x: tensor<1x12x14x2xf32>, %w: tensor<3x3x2x5xf32>, %o: tensor<1x3x4x5xf32>) -> tensor<1x3x4x5xf32> {
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<3> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
         ins(%x, %w : tensor<1x12x14x2xf32>, tensor<3x3x2x5xf32>) outs(%o : tensor<1x3x4x5xf32>) -> tensor<1x3x4x5xf32>
  return %r : tensor<1x3x4x5xf32>
}

// -----

// NCHW: patches [N, C, KH, KW, OH, OW], a row of OW output columns at a time
// (input[n, c, oh + kh, kw : kw + OW]) with unit column stride, elementwise
// otherwise; then a batch of filter * patches sharing the filter; a 1x1 kernel
// needs no patches.
// CHECK-DAG:   #[[SREAD:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d4 * 2 + d2, d5 * 2 + d3)>
// CHECK-LABEL: func.func @nchw
// CHECK:         scf.for %[[N:[^ ]*]] =
// CHECK:           scf.for %[[C:[^ ]*]] =
// CHECK:             scf.for %[[KH:[^ ]*]] =
// CHECK:               scf.for %[[KW:[^ ]*]] =
// CHECK:                 scf.for %[[OH:[^ ]*]] =
// CHECK:                   %[[ROW:.*]] = arith.addi
// CHECK:                   %[[VALUES:.*]] = vector.transfer_read %arg0[%[[N]], %[[C]], %[[ROW]], %{{.*}}], %{{.*}} {in_bounds = [true]} : tensor<2x3x6x6xf32>, vector<4xf32>
// CHECK:                   vector.transfer_write %[[VALUES]], %{{.*}}[%[[N]], %[[C]], %[[KH]], %[[KW]], %[[OH]], %{{.*}}] {in_bounds = [true]} : vector<4xf32>, tensor<2x3x3x3x4x4xf32>
// CHECK:         tensor.collapse_shape %{{.*}} {{\[}}[0], [1, 2, 3], [4, 5]] : tensor<2x3x3x3x4x4xf32> into tensor<2x27x16xf32>
// CHECK:         tensor.collapse_shape %{{.*}} {{\[}}[0], [1, 2, 3]] : tensor<5x3x3x3xf32> into tensor<5x27xf32>
// CHECK-LABEL: func.func @nchw_stride2
// CHECK-NOT:     vector.transfer_read
// CHECK:         linalg.generic {indexing_maps = [#[[SREAD]], #{{.*}}]
// CHECK-LABEL: func.func @nchw_pointwise
// CHECK-NOT:     tensor.empty
// CHECK:         tensor.collapse_shape %{{.*}} {{\[}}[0], [1], [2, 3]] : tensor<2x3x4x4xf32> into tensor<2x3x16xf32>
// The filter is shared by every image of the batch.
// MIPS-LABEL: func.func @nchw
// MIPS:         mips.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<5x27xf32>, tensor<2x27x16xf32>)
// MIPS-LABEL: func.func @nchw_pointwise
// MIPS:         mips.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<5x3xf32>, tensor<2x3x16xf32>)
func.func @nchw(%x: tensor<2x3x6x6xf32>, %w: tensor<5x3x3x3xf32>, %o: tensor<2x5x4x4xf32>) -> tensor<2x5x4x4xf32> {
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<2x3x6x6xf32>, tensor<5x3x3x3xf32>) outs(%o : tensor<2x5x4x4xf32>) -> tensor<2x5x4x4xf32>
  return %r : tensor<2x5x4x4xf32>
}
func.func @nchw_stride2(%x: tensor<2x3x9x9xf32>, %w: tensor<5x3x3x3xf32>, %o: tensor<2x5x4x4xf32>) -> tensor<2x5x4x4xf32> {
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
         ins(%x, %w : tensor<2x3x9x9xf32>, tensor<5x3x3x3xf32>) outs(%o : tensor<2x5x4x4xf32>) -> tensor<2x5x4x4xf32>
  return %r : tensor<2x5x4x4xf32>
}
func.func @nchw_pointwise(%x: tensor<2x3x4x4xf32>, %w: tensor<5x3x1x1xf32>, %o: tensor<2x5x4x4xf32>) -> tensor<2x5x4x4xf32> {
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<2x3x4x4xf32>, tensor<5x3x1x1xf32>) outs(%o : tensor<2x5x4x4xf32>) -> tensor<2x5x4x4xf32>
  return %r : tensor<2x5x4x4xf32>
}

// -----

// Left alone: dynamic shapes, depthwise convolutions, other element types.
// CHECK-LABEL: func.func @left_alone
// CHECK:         linalg.conv_2d_nhwc_hwcf
// CHECK:         linalg.depthwise_conv_2d_nhwc_hwc
// CHECK:         linalg.conv_2d_nhwc_hwcf
func.func @left_alone(%x: tensor<?x8x8x4xf32>, %w: tensor<3x3x4x2xf32>, %o: tensor<?x6x6x2xf32>,
                      %dx: tensor<1x8x8x4xf32>, %dw: tensor<3x3x4xf32>, %do: tensor<1x6x6x4xf32>,
                      %hx: tensor<1x8x8x4xf16>, %hw: tensor<3x3x4x2xf16>, %ho: tensor<1x6x6x2xf16>)
    -> (tensor<?x6x6x2xf32>, tensor<1x6x6x4xf32>, tensor<1x6x6x2xf16>) {
  %a = linalg.conv_2d_nhwc_hwcf ins(%x, %w : tensor<?x8x8x4xf32>, tensor<3x3x4x2xf32>) outs(%o : tensor<?x6x6x2xf32>) -> tensor<?x6x6x2xf32>
  %b = linalg.depthwise_conv_2d_nhwc_hwc ins(%dx, %dw : tensor<1x8x8x4xf32>, tensor<3x3x4xf32>) outs(%do : tensor<1x6x6x4xf32>) -> tensor<1x6x6x4xf32>
  %c = linalg.conv_2d_nhwc_hwcf ins(%hx, %hw : tensor<1x8x8x4xf16>, tensor<3x3x4x2xf16>) outs(%ho : tensor<1x6x6x2xf16>) -> tensor<1x6x6x2xf16>
  return %a, %b, %c : tensor<?x6x6x2xf32>, tensor<1x6x6x4xf32>, tensor<1x6x6x2xf16>
}

// -----

// A 1x1 kernel over an input with a row the output never reads is not a view of
// the input: it goes through the patches copy (which reads only what is used).
// CHECK-LABEL: func.func @pointwise_larger_input
// CHECK:         tensor.empty() : tensor<1x5x1x1x1x4xf32>
// CHECK:         vector.transfer_read
// CHECK:         tensor.collapse_shape %{{.*}} {{\[}}[0, 1, 2], [3, 4, 5]] : tensor<1x5x1x1x1x4xf32> into tensor<5x4xf32>
func.func @pointwise_larger_input(%x: tensor<1x6x1x4xf32>, %w: tensor<8x1x1x4xf32>, %o: tensor<1x5x1x8xf32>) -> tensor<1x5x1x8xf32> {
  %r = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x6x1x4xf32>, tensor<8x1x1x4xf32>) outs(%o : tensor<1x5x1x8xf32>) -> tensor<1x5x1x8xf32>
  return %r : tensor<1x5x1x8xf32>
}

// -----

// int8 convolutions with zero points (_q) are quantized matmuls: through the patches
// for a 3x3 HWCF kernel; a 1x1 FHWC one on a view of the input, its [F, C] filter
// transposed into the [C, F] that linalg.quantized_matmul reads. NCHW _q stays loops.
// CHECK-LABEL: func.func @quantized
// CHECK-SAME:      %[[IZP:[^:]*]]: i32, %[[FZP:[^:]*]]: i32
// CHECK:         vector.transfer_read
// CHECK:         linalg.quantized_matmul ins(%{{.*}}, %{{.*}}, %[[IZP]], %[[FZP]] : tensor<16x72xi8>, tensor<72x4xi8>, i32, i32) outs(%{{.*}} : tensor<16x4xi32>)
// CHECK:         %[[T:.*]] = linalg.transpose ins(%{{.*}} : tensor<4x8xi8>) outs(%{{.*}} : tensor<8x4xi8>) permutation = [1, 0]
// CHECK:         linalg.quantized_matmul ins(%{{.*}}, %[[T]], %[[IZP]], %[[FZP]] : tensor<16x8xi8>, tensor<8x4xi8>, i32, i32)
// CHECK:         linalg.conv_2d_nchw_fchw_q
// MIPS-LABEL: func.func @quantized
// MIPS-COUNT-2: mips.matmul
func.func @quantized(%x: tensor<1x6x6x8xi8>, %w: tensor<3x3x8x4xi8>, %o: tensor<1x4x4x4xi32>,
                     %px: tensor<1x4x4x8xi8>, %pw: tensor<4x1x1x8xi8>,
                     %nx: tensor<1x8x4x4xi8>, %nw: tensor<4x8x1x1xi8>, %no: tensor<1x4x4x4xi32>,
                     %izp: i32, %fzp: i32) -> (tensor<1x4x4x4xi32>, tensor<1x4x4x4xi32>, tensor<1x4x4x4xi32>) {
  %a = linalg.conv_2d_nhwc_hwcf_q {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w, %izp, %fzp : tensor<1x6x6x8xi8>, tensor<3x3x8x4xi8>, i32, i32) outs(%o : tensor<1x4x4x4xi32>) -> tensor<1x4x4x4xi32>
  %b = linalg.conv_2d_nhwc_fhwc_q {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%px, %pw, %izp, %fzp : tensor<1x4x4x8xi8>, tensor<4x1x1x8xi8>, i32, i32) outs(%o : tensor<1x4x4x4xi32>) -> tensor<1x4x4x4xi32>
  %c = linalg.conv_2d_nchw_fchw_q {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%nx, %nw, %izp, %fzp : tensor<1x8x4x4xi8>, tensor<4x8x1x1xi8>, i32, i32) outs(%no : tensor<1x4x4x4xi32>) -> tensor<1x4x4x4xi32>
  return %a, %b, %c : tensor<1x4x4x4xi32>, tensor<1x4x4x4xi32>, tensor<1x4x4x4xi32>
}

// -----

// With the im2col buffer bounded (here to 1200 bytes), a conv whose patches are
// larger runs in blocks of output rows of one image: the rows' input slice, their
// patches, one product into their slice of the output, which a zero fill makes an
// overwrite. NHWC: 1008 bytes per output row, so blocks of 1 of the 7 rows; NCHW
// with stride 2: 576 bytes per row, blocks of 2 of the 4 rows (5 input rows each).
// BLOCKS-LABEL: func.func @blocked_nhwc
// BLOCKS:         scf.for %[[N:.*]] = %c0 to %c2 step %c1 iter_args(%[[ACC:.*]] = %{{.*}})
// BLOCKS:           scf.for %[[R:.*]] = %c0 to %c7 step %c1 iter_args(%[[BLK:.*]] = %[[ACC]])
// BLOCKS:             tensor.extract_slice %[[BLK]][%[[N]], %[[R]], 0, 0] [1, 1, 7, 8]
// BLOCKS:             tensor.extract_slice %arg0[%[[N]], %[[R]], 0, 0] [1, 3, 9, 4]
// BLOCKS:             mips.matmul overwrite ins(%{{.*}}, %{{.*}} : tensor<7x36xf32>, tensor<36x8xf32>)
// BLOCKS:             tensor.insert_slice %{{.*}} into %[[BLK]][%[[N]], %[[R]], 0, 0] [1, 1, 7, 8]
// BLOCKS-LABEL: func.func @blocked_nchw
// BLOCKS:         scf.for %[[N:.*]] = %c0 to %c2 step %c1
// BLOCKS:           scf.for %[[R:.*]] = %c0 to %c4 step %c2
// BLOCKS:             %[[ROW:.*]] = arith.muli %[[R]], %c2
// BLOCKS:             tensor.extract_slice %arg0[%[[N]], 0, %[[ROW]], 0] [1, 4, 5, 10]
// BLOCKS:             mips.matmul ins(%{{.*}}, %{{.*}} : tensor<8x36xf32>, tensor<36x8xf32>)
// CHECK-LABEL: func.func @blocked_nhwc
// CHECK-NOT:     scf.for %{{.*}} step %c1 iter_args(%{{.*}}) -> (tensor<2x7x7x8xf32>)
func.func @blocked_nhwc(%x: tensor<2x9x9x4xf32>, %w: tensor<3x3x4x8xf32>) -> tensor<2x7x7x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x7x7x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x7x7x8xf32>) -> tensor<2x7x7x8xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<2x9x9x4xf32>, tensor<3x3x4x8xf32>) outs(%f : tensor<2x7x7x8xf32>) -> tensor<2x7x7x8xf32>
  return %r : tensor<2x7x7x8xf32>
}
func.func @blocked_nchw(%x: tensor<2x4x10x10xf32>, %w: tensor<8x4x3x3xf32>, %o: tensor<2x8x4x4xf32>) -> tensor<2x8x4x4xf32> {
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
         ins(%x, %w : tensor<2x4x10x10xf32>, tensor<8x4x3x3xf32>) outs(%o : tensor<2x8x4x4xf32>) -> tensor<2x8x4x4xf32>
  return %r : tensor<2x8x4x4xf32>
}
