// Depthwise convolutions, which mips-compile writes as vector code along the
// channels (19 and 6: a masked last block at every VLEN); checked against C loops
// by drivers/depthwise.c.

// 3x3, stride 1, from a zero fill; 9 output columns are two tiles of 4 and one.
func.func @depthwise(%x: tensor<1x9x11x19xf32>, %w: tensor<3x3x19xf32>) -> tensor<1x7x9x19xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x7x9x19xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x7x9x19xf32>) -> tensor<1x7x9x19xf32>
  %r = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x9x11x19xf32>, tensor<3x3x19xf32>) outs(%f : tensor<1x7x9x19xf32>) -> tensor<1x7x9x19xf32>
  return %r : tensor<1x7x9x19xf32>
}

// Strides 2 and dilations 2 over a batch of 2, added to %acc.
func.func @depthwise_strided(%x: tensor<2x11x12x6xf32>, %w: tensor<3x3x6xf32>, %acc: tensor<2x4x4x6xf32>) -> tensor<2x4x4x6xf32> {
  %r = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<2> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%x, %w : tensor<2x11x12x6xf32>, tensor<3x3x6xf32>) outs(%acc : tensor<2x4x4x6xf32>) -> tensor<2x4x4x6xf32>
  return %r : tensor<2x4x4x6xf32>
}

// TOSA's depthwise conv (multiplier 1) with padding, a row stride of 2 and a bias.
func.func @tosa_depthwise(%x: tensor<1x9x12x19xf32>, %w: tensor<3x3x19x1xf32>, %bias: tensor<19xf32>) -> tensor<1x5x12x19xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %r = tosa.depthwise_conv2d %x, %w, %bias, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 2, 1>} : (tensor<1x9x12x19xf32>, tensor<3x3x19x1xf32>, tensor<19xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x5x12x19xf32>
  return %r : tensor<1x5x12x19xf32>
}
