// RUN: mips-opt %s -split-input-file --mips-drop-padding-only-taps --convert-conv-to-matmul | FileCheck %s

// Taps that read only zero padding are dropped before the conv becomes a matmul:
// a 3x3 kernel with padding 1 on a 1x1 image (ResNet-18's last stage on a 32x32
// input) keeps its centre tap, a 1x1 conv, which is a product on views.
// CHECK-LABEL: func.func @last_stage
// CHECK-SAME:    %[[X:[a-z0-9]+]]: tensor<1x8x1x1xf32>, %[[W:[a-z0-9]+]]: tensor<6x8x3x3xf32>
// The centre tap's weights are a 2-D view of the filter (strides 72 and 9), not a copy.
// CHECK:         %[[CENTRE:.*]] = tensor.extract_slice %[[W]][0, 0, 1, 1] [6, 8, 1, 1] [1, 1, 1, 1] : tensor<6x8x3x3xf32> to tensor<6x8xf32>
// CHECK-NOT:     tensor.pad
// CHECK-NOT:     tensor.collapse_shape %[[CENTRE]]
// CHECK:         tensor.collapse_shape %[[X]] {{\[}}[0], [1], [2, 3]] : tensor<1x8x1x1xf32> into tensor<1x8x1xf32>
// CHECK:         linalg.generic {{.*}} ins(%[[CENTRE]], %{{.*}} : tensor<6x8xf32>, tensor<1x8x1xf32>)
// CHECK-NOT:     linalg.conv_2d
func.func @last_stage(%x: tensor<1x8x1x1xf32>, %w: tensor<6x8x3x3xf32>, %o: tensor<1x6x1x1xf32>) -> tensor<1x6x1x1xf32> {
  %z = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f32
  } : tensor<1x8x1x1xf32> to tensor<1x8x3x3xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%p, %w : tensor<1x8x3x3xf32>, tensor<6x8x3x3xf32>) outs(%o : tensor<1x6x1x1xf32>) -> tensor<1x6x1x1xf32>
  return %r : tensor<1x6x1x1xf32>
}

// -----

// One image row padded by 1 above and below: only the middle row of taps reads it;
// the columns keep all three taps and their padding.
// CHECK-LABEL: func.func @rows_only
// CHECK-SAME:    %[[X:[a-z0-9]+]]: tensor<1x1x5x4xf32>, %[[W:[a-z0-9]+]]: tensor<3x3x4x2xf32>
// CHECK:         tensor.extract_slice %[[W]][1, 0, 0, 0] [1, 3, 4, 2] [1, 1, 1, 1] : tensor<3x3x4x2xf32> to tensor<1x3x4x2xf32>
// CHECK:         tensor.pad %[[X]] low[0, 0, 1, 0] high[0, 0, 1, 0]
// CHECK:         } : tensor<1x1x5x4xf32> to tensor<1x1x7x4xf32>
// CHECK:         tensor.empty() : tensor<1x1x5x1x3x4xf32>
func.func @rows_only(%x: tensor<1x1x5x4xf32>, %w: tensor<3x3x4x2xf32>, %o: tensor<1x1x5x2xf32>) -> tensor<1x1x5x2xf32> {
  %z = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f32
  } : tensor<1x1x5x4xf32> to tensor<1x3x7x4xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%p, %w : tensor<1x3x7x4xf32>, tensor<3x3x4x2xf32>) outs(%o : tensor<1x1x5x2xf32>) -> tensor<1x1x5x2xf32>
  return %r : tensor<1x1x5x2xf32>
}

// -----

// Stride 3 over rows padded by 1: the first tap reads only padding, and the
// image's last row is read by no kept tap, so the input is sliced, not padded.
// CHECK-LABEL: func.func @sliced
// CHECK-SAME:    %[[X:[a-z0-9]+]]: tensor<1x3x2x4xi8>, %[[W:[a-z0-9]+]]: tensor<2x3x1x4xi8>
// CHECK:         tensor.extract_slice %[[W]][0, 1, 0, 0] [2, 2, 1, 4] [1, 1, 1, 1] : tensor<2x3x1x4xi8> to tensor<2x2x1x4xi8>
// CHECK:         tensor.extract_slice %[[X]][0, 0, 0, 0] [1, 2, 2, 4] [1, 1, 1, 1] : tensor<1x3x2x4xi8> to tensor<1x2x2x4xi8>
// CHECK-NOT:     tensor.pad
// CHECK:         tensor.empty() : tensor<1x1x2x2x1x4xi8>
func.func @sliced(%x: tensor<1x3x2x4xi8>, %w: tensor<2x3x1x4xi8>, %o: tensor<1x1x2x2xi32>) -> tensor<1x1x2x2xi32> {
  %z = arith.constant 0 : i8
  %p = tensor.pad %x low[0, 1, 0, 0] high[0, 1, 0, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : i8
  } : tensor<1x3x2x4xi8> to tensor<1x5x2x4xi8>
  %r = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<[3, 1]> : tensor<2xi64>}
         ins(%p, %w : tensor<1x5x2x4xi8>, tensor<2x3x1x4xi8>) outs(%o : tensor<1x1x2x2xi32>) -> tensor<1x1x2x2xi32>
  return %r : tensor<1x1x2x2xi32>
}

// -----

// Padding with a value other than zero is read by every tap: nothing is dropped.
// CHECK-LABEL: func.func @padded_with_one
// CHECK:         tensor.pad %{{.*}} low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK:         tensor.empty() : tensor<1x8x3x3x1x1xf32>
func.func @padded_with_one(%x: tensor<1x8x1x1xf32>, %w: tensor<6x8x3x3xf32>, %o: tensor<1x6x1x1xf32>) -> tensor<1x6x1x1xf32> {
  %one = arith.constant 1.0 : f32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %one : f32
  } : tensor<1x8x1x1xf32> to tensor<1x8x3x3xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%p, %w : tensor<1x8x3x3xf32>, tensor<6x8x3x3xf32>) outs(%o : tensor<1x6x1x1xf32>) -> tensor<1x6x1x1xf32>
  return %r : tensor<1x6x1x1xf32>
}

// -----

// Zero padding of the channels is not a conv's padding: nothing is dropped.
// CHECK-LABEL: func.func @padded_channels
// CHECK:         tensor.pad %{{.*}} low[0, 0, 1, 1] high[0, 1, 1, 1]
// CHECK:         tensor.empty() : tensor<1x9x3x3x1x1xf32>
func.func @padded_channels(%x: tensor<1x8x1x1xf32>, %w: tensor<6x9x3x3xf32>, %o: tensor<1x6x1x1xf32>) -> tensor<1x6x1x1xf32> {
  %z = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 1, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f32
  } : tensor<1x8x1x1xf32> to tensor<1x9x3x3xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%p, %w : tensor<1x9x3x3xf32>, tensor<6x9x3x3xf32>) outs(%o : tensor<1x6x1x1xf32>) -> tensor<1x6x1x1xf32>
  return %r : tensor<1x6x1x1xf32>
}

// -----

// The one-tap view in the NHWC layouts: HWCF keeps C x F, FHWC keeps F x C.
// CHECK-LABEL: func.func @one_tap_hwcf
// CHECK:         %[[V:.*]] = tensor.extract_slice %{{.*}}[1, 1, 0, 0] [1, 1, 4, 6] [1, 1, 1, 1] : tensor<3x3x4x6xf32> to tensor<4x6xf32>
// CHECK:         linalg.generic {{.*}} ins(%{{.*}}, %[[V]] : tensor<1x4xf32>, tensor<4x6xf32>)
// CHECK-LABEL: func.func @one_tap_fhwc
// CHECK:         %[[V:.*]] = tensor.extract_slice %{{.*}}[0, 1, 1, 0] [6, 1, 1, 4] [1, 1, 1, 1] : tensor<6x3x3x4xi8> to tensor<6x4xi8>
// CHECK:         linalg.generic {{.*}} ins(%{{.*}}, %[[V]] : tensor<1x4xi8>, tensor<6x4xi8>)
func.func @one_tap_hwcf(%x: tensor<1x1x1x4xf32>, %w: tensor<3x3x4x6xf32>, %o: tensor<1x1x1x6xf32>) -> tensor<1x1x1x6xf32> {
  %z = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f32
  } : tensor<1x1x1x4xf32> to tensor<1x3x3x4xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%p, %w : tensor<1x3x3x4xf32>, tensor<3x3x4x6xf32>) outs(%o : tensor<1x1x1x6xf32>) -> tensor<1x1x1x6xf32>
  return %r : tensor<1x1x1x6xf32>
}
func.func @one_tap_fhwc(%x: tensor<1x1x1x4xi8>, %w: tensor<6x3x3x4xi8>, %o: tensor<1x1x1x6xi32>) -> tensor<1x1x1x6xi32> {
  %z = arith.constant 0 : i8
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : i8
  } : tensor<1x1x1x4xi8> to tensor<1x3x3x4xi8>
  %r = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%p, %w : tensor<1x3x3x4xi8>, tensor<6x3x3x4xi8>) outs(%o : tensor<1x1x1x6xi32>) -> tensor<1x1x1x6xi32>
  return %r : tensor<1x1x1x6xi32>
}

// -----

// NCHW with 2x2 of 3x3 taps reading the image (stride 2 on a 2x2 image): the kept
// taps would not be a view of the FCHW filter once flattened with its channels, so
// nothing is dropped (a copy of the slice on every call costs more than it saves).
// CHECK-LABEL: func.func @nchw_taps_not_a_view
// CHECK-NOT:     tensor.extract_slice %{{.*}}[0, 0, 1, 1] [6, 8, 2, 2]
// CHECK:         tensor.pad %{{.*}} low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK:         tensor.empty() : tensor<1x8x3x3x1x1xf32>
func.func @nchw_taps_not_a_view(%x: tensor<1x8x2x2xf32>, %w: tensor<6x8x3x3xf32>, %o: tensor<1x6x1x1xf32>) -> tensor<1x6x1x1xf32> {
  %z = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f32
  } : tensor<1x8x2x2xf32> to tensor<1x8x4x4xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
         ins(%p, %w : tensor<1x8x4x4xf32>, tensor<6x8x3x3xf32>) outs(%o : tensor<1x6x1x1xf32>) -> tensor<1x6x1x1xf32>
  return %r : tensor<1x6x1x1xf32>
}
