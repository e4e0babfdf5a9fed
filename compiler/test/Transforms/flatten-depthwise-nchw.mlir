// RUN: mips-opt %s --mips-flatten-depthwise-nchw --canonicalize --split-input-file | FileCheck %s
// RUN: mips-opt %s --mips-flatten-depthwise-nchw --split-input-file -o /dev/null

// A padded 3x3 depthwise conv into a broadcast bias (MobileNetV2's form): the pad
// grows by a spare row for the last windows, each channel's 7x6 plane is one row
// of 42, the sums run over 4 rows of 6 positions (24) from views at the nine tap
// offsets, starting from the bias broadcast to the plane, and the output is the
// 4x4 view of the 4x6 plane.
#channel = affine_map<(n, c, h, w) -> (c)>
#id4 = affine_map<(n, c, h, w) -> (n, c, h, w)>
// CHECK-DAG:   #[[PLANE:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG:   #[[BIAS:.*]] = affine_map<(d0, d1, d2) -> (d1)>
// CHECK-DAG:   #[[TAP00:.*]] = affine_map<(d0, d1, d2) -> (d1, 0, 0)>
// CHECK-DAG:   #[[TAP22:.*]] = affine_map<(d0, d1, d2) -> (d1, 2, 2)>
// CHECK-LABEL: func.func @padded_bias
// CHECK:         %[[PAD:.*]] = tensor.pad %arg0 low[0, 0, 1, 1] high[0, 0, 2, 1]
// CHECK:         } : tensor<1x8x4x4xf32> to tensor<1x8x7x6xf32>
// CHECK:         %[[FLAT:.*]] = tensor.collapse_shape %[[PAD]] {{\[\[}}0], [1], [2, 3]] : tensor<1x8x7x6xf32> into tensor<1x8x42xf32>
// CHECK:         %[[START:.*]] = linalg.generic {indexing_maps = [#[[BIAS]], #[[PLANE]]]{{.*}} ins(%arg2 : tensor<8xf32>) outs(%{{.*}} : tensor<1x8x24xf32>)
// CHECK:         %[[T0:.*]] = tensor.extract_slice %[[FLAT]][0, 0, 0] [1, 8, 24] [1, 1, 1]
// CHECK:         tensor.extract_slice %[[FLAT]][0, 0, 1] [1, 8, 24]
// CHECK:         tensor.extract_slice %[[FLAT]][0, 0, 2] [1, 8, 24]
// CHECK:         tensor.extract_slice %[[FLAT]][0, 0, 6] [1, 8, 24]
// CHECK:         tensor.extract_slice %[[FLAT]][0, 0, 7] [1, 8, 24]
// CHECK:         tensor.extract_slice %[[FLAT]][0, 0, 8] [1, 8, 24]
// CHECK:         tensor.extract_slice %[[FLAT]][0, 0, 12] [1, 8, 24]
// CHECK:         tensor.extract_slice %[[FLAT]][0, 0, 13] [1, 8, 24]
// CHECK:         tensor.extract_slice %[[FLAT]][0, 0, 14] [1, 8, 24]
// CHECK:         %[[SUMS:.*]] = linalg.generic {indexing_maps = [#[[PLANE]], #[[PLANE]], #[[PLANE]], #[[PLANE]], #[[PLANE]], #[[PLANE]], #[[PLANE]], #[[PLANE]], #[[PLANE]], #[[TAP00]], {{.*}}, #[[TAP22]], #[[PLANE]]]
// CHECK-SAME:      ins(%[[T0]], {{.*}}, %arg1, %arg1, %arg1, %arg1, %arg1, %arg1, %arg1, %arg1, %arg1 :
// CHECK-SAME:      outs(%[[START]] : tensor<1x8x24xf32>)
// Tap by tap in linalg's order, a multiply then an add LLVM may fuse: the first input
// view times the first weight, ...
// CHECK:         ^bb0(%in: f32, %in_9: f32, {{.*}}, %in_17: f32, %in_18: f32, {{.*}}, %out: f32):
// CHECK-NEXT:      %[[P0:.*]] = arith.mulf %in, %in_17 fastmath<contract> : f32
// CHECK-NEXT:      %[[S0:.*]] = arith.addf %out, %[[P0]] fastmath<contract> : f32
// CHECK-NEXT:      %[[P1:.*]] = arith.mulf %in_9, %in_18 fastmath<contract> : f32
// CHECK-NEXT:      %[[S1:.*]] = arith.addf %[[S0]], %[[P1]] fastmath<contract> : f32
// CHECK-COUNT-7:   arith.addf
// CHECK:         %[[GRID:.*]] = tensor.expand_shape %[[SUMS]] {{\[\[}}0], [1], [2, 3]] output_shape [1, 8, 4, 6]
// CHECK:         %[[OUTPUT:.*]] = tensor.extract_slice %[[GRID]][0, 0, 0, 0] [1, 8, 4, 4] [1, 1, 1, 1]
// CHECK:         return %[[OUTPUT]]
func.func @padded_bias(%x: tensor<1x8x4x4xf32>, %w: tensor<8x3x3xf32>, %b: tensor<8xf32>) -> tensor<1x8x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x8x4x4xf32> to tensor<1x8x6x6xf32>
  %e = tensor.empty() : tensor<1x8x4x4xf32>
  %init = linalg.generic {indexing_maps = [#channel, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%b : tensor<8xf32>) outs(%e : tensor<1x8x4x4xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  } -> tensor<1x8x4x4xf32>
  %r = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%p, %w : tensor<1x8x6x6xf32>, tensor<8x3x3xf32>) outs(%init : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  return %r : tensor<1x8x4x4xf32>
}

// -----

// Stride 2 on an unpadded image of two: a new pad adds the spare row; the stride-1
// plane's first 5 rows of 7 are summed from the fill's value, and the output is
// every second row and column of them.
// CHECK-LABEL: func.func @stride2_fill
// CHECK:         %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:         tensor.pad %arg0 low[0, 0, 0, 0] high[0, 0, 1, 0]
// CHECK:         } : tensor<2x4x7x7xf32> to tensor<2x4x8x7xf32>
// CHECK:         %[[START:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%{{.*}} : tensor<2x4x35xf32>)
// CHECK:         tensor.extract_slice %{{.*}}[0, 0, 16] [2, 4, 35] [1, 1, 1] : tensor<2x4x56xf32> to tensor<2x4x35xf32>
// CHECK:         linalg.generic {{.*}} outs(%[[START]] : tensor<2x4x35xf32>)
// CHECK:         %[[GRID:.*]] = tensor.expand_shape %{{.*}} output_shape [2, 4, 5, 7]
// CHECK:         tensor.extract_slice %[[GRID]][0, 0, 0, 0] [2, 4, 3, 3] [1, 1, 2, 2] : tensor<2x4x5x7xf32> to tensor<2x4x3x3xf32>
func.func @stride2_fill(%x: tensor<2x4x7x7xf32>, %w: tensor<4x3x3xf32>) -> tensor<2x4x3x3xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4x3x3xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x3x3xf32>) -> tensor<2x4x3x3xf32>
  %r = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%x, %w : tensor<2x4x7x7xf32>, tensor<4x3x3xf32>) outs(%f : tensor<2x4x3x3xf32>) -> tensor<2x4x3x3xf32>
  return %r : tensor<2x4x3x3xf32>
}

// -----

// Any other init is copied onto the plane's output positions; dilation 2 spaces
// the taps two rows and two columns apart.
// CHECK-LABEL: func.func @any_init_dilated
// CHECK:         %[[EMPTY:.*]] = tensor.empty() : tensor<1x4x24xf32>
// CHECK:         %[[GRID:.*]] = tensor.expand_shape %[[EMPTY]] {{\[\[}}0], [1], [2, 3]] output_shape [1, 4, 4, 6]
// CHECK:         %[[PLACED:.*]] = tensor.insert_slice %arg2 into %[[GRID]][0, 0, 0, 0] [1, 4, 4, 4] [1, 1, 1, 1]
// CHECK:         %[[START:.*]] = tensor.collapse_shape %[[PLACED]]
// CHECK:         tensor.extract_slice %{{.*}}[0, 0, 0] [1, 4, 24]
// CHECK:         tensor.extract_slice %{{.*}}[0, 0, 2] [1, 4, 24]
// CHECK:         tensor.extract_slice %{{.*}}[0, 0, 12] [1, 4, 24]
// CHECK:         tensor.extract_slice %{{.*}}[0, 0, 14] [1, 4, 24]
// CHECK:         linalg.generic {{.*}} outs(%[[START]] : tensor<1x4x24xf32>)
func.func @any_init_dilated(%x: tensor<1x4x6x6xf32>, %w: tensor<4x2x2xf32>, %o: tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32> {
  %r = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x4x6x6xf32>, tensor<4x2x2xf32>) outs(%o : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  return %r : tensor<1x4x4x4xf32>
}

// -----

// Stride 3, dynamic shapes and other element types stay linalg ops.
// CHECK-LABEL: func.func @stay
// CHECK-COUNT-3: linalg.depthwise_conv_2d_nchw_chw
func.func @stay(%x: tensor<1x4x7x7xf32>, %w: tensor<4x3x3xf32>, %o: tensor<1x4x2x2xf32>,
                %xd: tensor<?x4x7x7xf32>, %od: tensor<?x4x5x5xf32>,
                %xh: tensor<1x4x7x7xf16>, %wh: tensor<4x3x3xf16>, %oh: tensor<1x4x5x5xf16>)
    -> (tensor<1x4x2x2xf32>, tensor<?x4x5x5xf32>, tensor<1x4x5x5xf16>) {
  %a = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<3> : tensor<2xi64>} ins(%x, %w : tensor<1x4x7x7xf32>, tensor<4x3x3xf32>) outs(%o : tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %b = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%xd, %w : tensor<?x4x7x7xf32>, tensor<4x3x3xf32>) outs(%od : tensor<?x4x5x5xf32>) -> tensor<?x4x5x5xf32>
  %c = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%xh, %wh : tensor<1x4x7x7xf16>, tensor<4x3x3xf16>) outs(%oh : tensor<1x4x5x5xf16>) -> tensor<1x4x5x5xf16>
  return %a, %b, %c : tensor<1x4x2x2xf32>, tensor<?x4x5x5xf32>, tensor<1x4x5x5xf16>
}

// -----

// Taps that only ever read zero padding are dropped, and the image padded less:
// a 3x3 kernel on a 1x1 image (MobileNetV2's last blocks on a 32x32 input) is its
// centre tap alone, with no pad at all; at stride 2 on a 2x2 image the top row and
// left column of taps go. Padding with anything else keeps every tap.
// CHECK-DAG:   #[[PLANE:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG:   #[[CENTRE:.*]] = affine_map<(d0, d1, d2) -> (d1, 1, 1)>
// CHECK-DAG:   #[[T12:.*]] = affine_map<(d0, d1, d2) -> (d1, 1, 2)>
// CHECK-DAG:   #[[T21:.*]] = affine_map<(d0, d1, d2) -> (d1, 2, 1)>
// CHECK-DAG:   #[[T22:.*]] = affine_map<(d0, d1, d2) -> (d1, 2, 2)>
// CHECK-LABEL: func.func @centre_tap
// CHECK-NOT:     tensor.pad
// CHECK:         %[[IMAGE:.*]] = tensor.collapse_shape %arg0 {{\[\[}}0], [1], [2, 3]] : tensor<1x16x1x1xf32> into tensor<1x16x1xf32>
// CHECK:         linalg.generic {indexing_maps = [#[[PLANE]], #[[CENTRE]], #[[PLANE]]]{{.*}} ins(%[[IMAGE]], %arg1 :
// CHECK-COUNT-1:   arith.addf
// CHECK-NOT:       arith.addf
// CHECK-LABEL: func.func @stride2_small
// CHECK:         tensor.pad %arg0 low[0, 0, 0, 0] high[0, 0, 1, 0]
// CHECK:         } : tensor<1x16x2x2xf32> to tensor<1x16x3x2xf32>
// CHECK:         linalg.generic {indexing_maps = [#[[PLANE]], #[[PLANE]], #[[PLANE]], #[[PLANE]], #[[CENTRE]], #[[T12]], #[[T21]], #[[T22]], #[[PLANE]]]
// CHECK-COUNT-4:   arith.addf
// CHECK-NOT:       arith.addf
// CHECK-LABEL: func.func @ones_padding
// CHECK:         tensor.pad %arg0 low[0, 0, 1, 1] high[0, 0, 2, 1]
// CHECK-COUNT-9:   arith.addf
func.func @centre_tap(%x: tensor<1x16x1x1xf32>, %w: tensor<16x3x3xf32>, %o: tensor<1x16x1x1xf32>) -> tensor<1x16x1x1xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x16x1x1xf32> to tensor<1x16x3x3xf32>
  %r = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%p, %w : tensor<1x16x3x3xf32>, tensor<16x3x3xf32>) outs(%o : tensor<1x16x1x1xf32>) -> tensor<1x16x1x1xf32>
  return %r : tensor<1x16x1x1xf32>
}
func.func @stride2_small(%x: tensor<1x16x2x2xf32>, %w: tensor<16x3x3xf32>, %o: tensor<1x16x1x1xf32>) -> tensor<1x16x1x1xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x16x2x2xf32> to tensor<1x16x4x4xf32>
  %r = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%p, %w : tensor<1x16x4x4xf32>, tensor<16x3x3xf32>) outs(%o : tensor<1x16x1x1xf32>) -> tensor<1x16x1x1xf32>
  return %r : tensor<1x16x1x1xf32>
}
func.func @ones_padding(%x: tensor<1x16x1x1xf32>, %w: tensor<16x3x3xf32>, %o: tensor<1x16x1x1xf32>) -> tensor<1x16x1x1xf32> {
  %one = arith.constant 1.0 : f32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %one : f32
  } : tensor<1x16x1x1xf32> to tensor<1x16x3x3xf32>
  %r = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%p, %w : tensor<1x16x3x3xf32>, tensor<16x3x3xf32>) outs(%o : tensor<1x16x1x1xf32>) -> tensor<1x16x1x1xf32>
  return %r : tensor<1x16x1x1xf32>
}

// -----

// A padding constant defined in the pad's own body (as hand-written or other
// frontends' IR may have it) stays with that pad: the spare row is a second pad.
// CHECK-LABEL: func.func @constant_in_pad_body
// CHECK:         tensor.pad
// CHECK:         linalg.generic
// CHECK:         return
func.func @constant_in_pad_body(%x: tensor<1x2x4x4xf32>, %w: tensor<2x3x3xf32>) -> tensor<1x2x4x4xf32> {
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    %zero = arith.constant 0.0 : f32
    tensor.yield %zero : f32
  } : tensor<1x2x4x4xf32> to tensor<1x2x6x6xf32>
  %e = tensor.empty() : tensor<1x2x4x4xf32>
  %z = arith.constant 0.0 : f32
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %r = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%p, %w : tensor<1x2x6x6xf32>, tensor<2x3x3xf32>) outs(%f : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %r : tensor<1x2x4x4xf32>
}
