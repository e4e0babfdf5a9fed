// Convolutions through im2col into libmips, checked against C loops by drivers/conv.c.
// On riscv64 each patch row (KW * C elements) moves with scalable vectors: whole ones,
// then the row's last whole vector; for a row shorter than a register, a masked one;
// for a row longer than one register and at most two, a masked group of two. The rows
// here (48, 9, 15, 24, 6 floats; NCHW: 10) take each way at VLEN 128 (4 floats a
// register) and 512 (16): the group of two with 6 at 128 and with 24 at 512.

// 3x3, 16 -> 32 channels, stride 1: rows of 48.
func.func @conv3x3(%x: tensor<1x10x9x16xf32>, %w: tensor<3x3x16x32xf32>) -> tensor<1x8x7x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x7x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x7x32xf32>) -> tensor<1x8x7x32xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x10x9x16xf32>, tensor<3x3x16x32xf32>) outs(%f : tensor<1x8x7x32xf32>) -> tensor<1x8x7x32xf32>
  return %r : tensor<1x8x7x32xf32>
}

// 3 channels (an image's), stride 2: rows of 9.
func.func @conv3x3s2(%x: tensor<1x11x11x3xf32>, %w: tensor<3x3x3x8xf32>) -> tensor<1x5x5x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x5x5x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x5x5x8xf32>) -> tensor<1x5x5x8xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%x, %w : tensor<1x11x11x3xf32>, tensor<3x3x3x8xf32>) outs(%f : tensor<1x5x5x8xf32>) -> tensor<1x5x5x8xf32>
  return %r : tensor<1x5x5x8xf32>
}

// FHWC filter, a batch of 2, strides (2, 1), added to %acc: rows of 15.
func.func @conv_fhwc(%x: tensor<2x9x8x5xf32>, %w: tensor<6x3x3x5xf32>, %acc: tensor<2x4x6x6xf32>) -> tensor<2x4x6x6xf32> {
  %r = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<[2, 1]> : tensor<2xi64>} ins(%x, %w : tensor<2x9x8x5xf32>, tensor<6x3x3x5xf32>) outs(%acc : tensor<2x4x6x6xf32>) -> tensor<2x4x6x6xf32>
  return %r : tensor<2x4x6x6xf32>
}

// NCHW (PyTorch's layout), a batch of 2: rows of 10 output columns.
func.func @conv_nchw(%x: tensor<2x4x7x12xf32>, %w: tensor<6x4x3x3xf32>) -> tensor<2x6x5x10xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x6x5x10xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x6x5x10xf32>) -> tensor<2x6x5x10xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<2x4x7x12xf32>, tensor<6x4x3x3xf32>) outs(%f : tensor<2x6x5x10xf32>) -> tensor<2x6x5x10xf32>
  return %r : tensor<2x6x5x10xf32>
}

// NCHW with strides (2, 1) and dilation 2: rows of 10 from column 2 kw.
func.func @conv_nchw_dilated(%x: tensor<1x3x11x14xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x4x10xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x4x10xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x4x10xf32>) -> tensor<1x4x4x10xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<2> : tensor<2xi64>, strides = dense<[2, 1]> : tensor<2xi64>} ins(%x, %w : tensor<1x3x11x14xf32>, tensor<4x3x3x3xf32>) outs(%f : tensor<1x4x4x10xf32>) -> tensor<1x4x4x10xf32>
  return %r : tensor<1x4x4x10xf32>
}

// 8 channels: rows of 24 (a masked group of two registers at VLEN 512).
func.func @conv3x3_c8(%x: tensor<1x7x9x8xf32>, %w: tensor<3x3x8x4xf32>) -> tensor<1x5x7x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x5x7x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x5x7x4xf32>) -> tensor<1x5x7x4xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x7x9x8xf32>, tensor<3x3x8x4xf32>) outs(%f : tensor<1x5x7x4xf32>) -> tensor<1x5x7x4xf32>
  return %r : tensor<1x5x7x4xf32>
}

// 2 channels: rows of 6 (a masked group of two registers at VLEN 128).
func.func @conv3x3_c2(%x: tensor<1x6x8x2xf32>, %w: tensor<3x3x2x3xf32>) -> tensor<1x4x6x3xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x6x3xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x6x3xf32>) -> tensor<1x4x6x3xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x6x8x2xf32>, tensor<3x3x2x3xf32>) outs(%f : tensor<1x4x6x3xf32>) -> tensor<1x4x6x3xf32>
  return %r : tensor<1x4x6x3xf32>
}
