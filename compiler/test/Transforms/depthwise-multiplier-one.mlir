// RUN: mips-opt %s --mips-depthwise-multiplier-one | FileCheck %s

// A depthwise conv with a channel multiplier of 1 (TOSA's) becomes the plain
// depthwise form on views without the unit dimension; a multiplier of 2 stays.
// CHECK-LABEL: func.func @depthwise_multiplier
// CHECK:         %[[W:.*]] = tensor.collapse_shape %arg1 {{\[\[}}0], [1], [2, 3]] : tensor<3x3x5x1xf32> into tensor<3x3x5xf32>
// CHECK:         %[[O:.*]] = tensor.collapse_shape %arg2 {{\[\[}}0], [1], [2], [3, 4]] : tensor<1x3x2x5x1xf32> into tensor<1x3x2x5xf32>
// CHECK:         %[[D:.*]] = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<[1, 2]> : tensor<2xi64>, strides = dense<[2, 1]> : tensor<2xi64>} ins(%arg0, %[[W]] : {{.*}}) outs(%[[O]] : tensor<1x3x2x5xf32>)
// CHECK:         %[[R:.*]] = tensor.expand_shape %[[D]] {{\[\[}}0], [1], [2], [3, 4]]
// CHECK:         linalg.depthwise_conv_2d_nhwc_hwcm {{.*}} tensor<3x3x5x2xf32>
// CHECK:         return %[[R]]
func.func @depthwise_multiplier(%x: tensor<1x7x6x5xf32>, %w: tensor<3x3x5x1xf32>, %o: tensor<1x3x2x5x1xf32>,
                                %w2: tensor<3x3x5x2xf32>, %o2: tensor<1x3x2x5x2xf32>)
    -> (tensor<1x3x2x5x1xf32>, tensor<1x3x2x5x2xf32>) {
  %a = linalg.depthwise_conv_2d_nhwc_hwcm {dilations = dense<[1, 2]> : tensor<2xi64>, strides = dense<[2, 1]> : tensor<2xi64>} ins(%x, %w : tensor<1x7x6x5xf32>, tensor<3x3x5x1xf32>) outs(%o : tensor<1x3x2x5x1xf32>) -> tensor<1x3x2x5x1xf32>
  %b = linalg.depthwise_conv_2d_nhwc_hwcm {dilations = dense<[1, 2]> : tensor<2xi64>, strides = dense<[2, 1]> : tensor<2xi64>} ins(%x, %w2 : tensor<1x7x6x5xf32>, tensor<3x3x5x2xf32>) outs(%o2 : tensor<1x3x2x5x2xf32>) -> tensor<1x3x2x5x2xf32>
  return %a, %b : tensor<1x3x2x5x1xf32>, tensor<1x3x2x5x2xf32>
}
