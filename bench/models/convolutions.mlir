// The convolutions of issue 17's table: 3x3 16->32 on 32x32 (NHWC) reading the
// function's argument, and after a ReLU (its input then a buffer of the model's own,
// as in every layer but the first), 1x1 64->64 on 16x16 (NHWC), and a stride-2 3x3
// NCHW one.
func.func @conv3x3(%x: tensor<1x34x34x16xf32>, %w: tensor<3x3x16x32xf32>) -> tensor<1x32x32x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x32x32x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x32x32x32xf32>) -> tensor<1x32x32x32xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x34x34x16xf32>, tensor<3x3x16x32xf32>) outs(%f : tensor<1x32x32x32xf32>) -> tensor<1x32x32x32xf32>
  return %r : tensor<1x32x32x32xf32>
}
func.func @conv1x1(%x: tensor<1x16x16x64xf32>, %w: tensor<1x1x64x64xf32>) -> tensor<1x16x16x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x16x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x16x64xf32>) -> tensor<1x16x16x64xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x16x16x64xf32>, tensor<1x1x64x64xf32>) outs(%f : tensor<1x16x16x64xf32>) -> tensor<1x16x16x64xf32>
  return %r : tensor<1x16x16x64xf32>
}
// The 3x3 conv above with stride 2 (a downsampling layer): 16x16 outputs.
func.func @conv3x3s2(%x: tensor<1x34x34x16xf32>, %w: tensor<3x3x16x32xf32>) -> tensor<1x16x16x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x16x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x16x32xf32>) -> tensor<1x16x16x32xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%x, %w : tensor<1x34x34x16xf32>, tensor<3x3x16x32xf32>) outs(%f : tensor<1x16x16x32xf32>) -> tensor<1x16x16x32xf32>
  return %r : tensor<1x16x16x32xf32>
}
func.func @nchw3x3s2(%x: tensor<2x8x17x17xf32>, %w: tensor<12x8x3x3xf32>) -> tensor<2x12x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x12x8x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x12x8x8xf32>) -> tensor<2x12x8x8xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%x, %w : tensor<2x8x17x17xf32>, tensor<12x8x3x3xf32>) outs(%f : tensor<2x12x8x8xf32>) -> tensor<2x12x8x8xf32>
  return %r : tensor<2x12x8x8xf32>
}

#relu_map = affine_map<(a, b, c, d) -> (a, b, c, d)>
func.func @relu_conv3x3(%x: tensor<1x34x34x16xf32>, %w: tensor<3x3x16x32xf32>) -> tensor<1x32x32x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<1x34x34x16xf32>
  %relu = linalg.generic {indexing_maps = [#relu_map, #relu_map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<1x34x34x16xf32>) outs(%e0 : tensor<1x34x34x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %a, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x34x34x16xf32>
  %e = tensor.empty() : tensor<1x32x32x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x32x32x32xf32>) -> tensor<1x32x32x32xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%relu, %w : tensor<1x34x34x16xf32>, tensor<3x3x16x32xf32>) outs(%f : tensor<1x32x32x32xf32>) -> tensor<1x32x32x32xf32>
  return %r : tensor<1x32x32x32xf32>
}
// Depthwise 3x3 over 96 channels on 32x32 (MobileNet's), on the function's argument
// and after a ReLU (a buffer of the program's own, with static strides).
func.func @depthwise3x3(%x: tensor<1x34x34x96xf32>, %w: tensor<3x3x96xf32>) -> tensor<1x32x32x96xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x32x32x96xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x32x32x96xf32>) -> tensor<1x32x32x96xf32>
  %r = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x34x34x96xf32>, tensor<3x3x96xf32>) outs(%f : tensor<1x32x32x96xf32>) -> tensor<1x32x32x96xf32>
  return %r : tensor<1x32x32x96xf32>
}
func.func @relu_depthwise3x3(%x: tensor<1x34x34x96xf32>, %w: tensor<3x3x96xf32>) -> tensor<1x32x32x96xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<1x34x34x96xf32>
  %relu = linalg.generic {indexing_maps = [#relu_map, #relu_map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<1x34x34x96xf32>) outs(%e0 : tensor<1x34x34x96xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %a, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x34x34x96xf32>
  %e = tensor.empty() : tensor<1x32x32x96xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x32x32x96xf32>) -> tensor<1x32x32x96xf32>
  %r = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%relu, %w : tensor<1x34x34x96xf32>, tensor<3x3x96xf32>) outs(%f : tensor<1x32x32x96xf32>) -> tensor<1x32x32x96xf32>
  return %r : tensor<1x32x32x96xf32>
}

// NCHW as PyTorch exports it: 3x3 64->64 on 16x16 (a ResNet-18 layer1 conv).
func.func @nchw3x3(%x: tensor<1x64x18x18xf32>, %w: tensor<64x64x3x3xf32>) -> tensor<1x64x16x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x64x16x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x64x16x16xf32>) -> tensor<1x64x16x16xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x64x18x18xf32>, tensor<64x64x3x3xf32>) outs(%f : tensor<1x64x16x16xf32>) -> tensor<1x64x16x16xf32>
  return %r : tensor<1x64x16x16xf32>
}

// The same depthwise conv in NCHW, as PyTorch exports it (MobileNetV2's form).
func.func @depthwise3x3_nchw(%x: tensor<1x96x34x34xf32>, %w: tensor<96x3x3xf32>) -> tensor<1x96x32x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x96x32x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x96x32x32xf32>) -> tensor<1x96x32x32xf32>
  %r = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x96x34x34xf32>, tensor<96x3x3xf32>) outs(%f : tensor<1x96x32x32xf32>) -> tensor<1x96x32x32xf32>
  return %r : tensor<1x96x32x32xf32>
}
