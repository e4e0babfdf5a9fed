// RUN: mips-opt %s --mips-drop-padding-only-taps --mips-depthwise-multiplier-one --convert-conv-to-matmul --mips-raise-contractions --mips-decompose-quantized-matmuls --convert-linalg-to-mips --mips-inline-small-matmuls --mips-remarks --verify-diagnostics --split-input-file
// RUN: mips-opt %s --mips-drop-padding-only-taps --mips-depthwise-multiplier-one --convert-conv-to-matmul --mips-raise-contractions --mips-decompose-quantized-matmuls --convert-linalg-to-mips --mips-inline-small-matmuls --mips-remarks=precise=true --split-input-file 2>&1 | FileCheck %s --check-prefix=PRECISE

// A 3x3 conv reaches libmips as a matmul over its patches, at the conv's location;
// a depthwise conv does not: it becomes vector code.
func.func @convs(%x: tensor<1x34x34x16xf32>, %w: tensor<3x3x16x32xf32>, %dw: tensor<3x3x16xf32>)
    -> (tensor<1x32x32x32xf32>, tensor<1x32x32x16xf32>) {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x32x32x32xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x32x32x32xf32>) -> tensor<1x32x32x32xf32>
  // expected-remark @below {{matmul 1024x32x144 (MxNxK) f32 x f32 -> f32 reaches libmips}}
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x34x34x16xf32>, tensor<3x3x16x32xf32>) outs(%f : tensor<1x32x32x32xf32>) -> tensor<1x32x32x32xf32>
  %e2 = tensor.empty() : tensor<1x32x32x16xf32>
  %f2 = linalg.fill ins(%z : f32) outs(%e2 : tensor<1x32x32x16xf32>) -> tensor<1x32x32x16xf32>
  // expected-remark @below {{linalg.depthwise_conv_2d_nhwc_hwc is not a matmul: it becomes vector code along its channels (when they are contiguous)}}
  %d = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %dw : tensor<1x34x34x16xf32>, tensor<3x3x16xf32>) outs(%f2 : tensor<1x32x32x16xf32>) -> tensor<1x32x32x16xf32>
  return %c, %d : tensor<1x32x32x32xf32>, tensor<1x32x32x16xf32>
}

// -----

// A dynamic conv and an f16 one stay loops, each with its reason.
func.func @conv_reasons(%x: tensor<?x?x?x?xf32>, %w: tensor<1x1x8x8xf32>, %o: tensor<?x?x?x8xf32>,
                        %xh: tensor<1x4x4x8xf16>, %wh: tensor<1x1x8x8xf16>, %oh: tensor<1x4x4x8xf16>,
                        %x7: tensor<1x10x10x8xf32>, %w7: tensor<7x7x8xf32>, %o7: tensor<1x4x4x8xf32>,
                        %wdh: tensor<1x1x8xf16>)
    -> (tensor<?x?x?x8xf32>, tensor<1x4x4x8xf16>, tensor<1x4x4x8xf32>, tensor<1x4x4x8xf16>) {
  // expected-remark @below {{linalg.conv_2d_nhwc_hwcf does not reach libmips: its shape is dynamic; only static convolutions are rewritten}}
  %c = linalg.conv_2d_nhwc_hwcf ins(%x, %w : tensor<?x?x?x?xf32>, tensor<1x1x8x8xf32>) outs(%o : tensor<?x?x?x8xf32>) -> tensor<?x?x?x8xf32>
  // expected-remark @below {{linalg.conv_2d_nhwc_hwcf does not reach libmips: its element types (f16, f16 -> f16) are not f32 or int8 into int32, which libmips multiplies}}
  %h = linalg.conv_2d_nhwc_hwcf ins(%xh, %wh : tensor<1x4x4x8xf16>, tensor<1x1x8x8xf16>) outs(%oh : tensor<1x4x4x8xf16>) -> tensor<1x4x4x8xf16>
  // expected-remark @below {{linalg.depthwise_conv_2d_nhwc_hwc runs as loops: its kernel is empty or larger than 5x5}}
  %d7 = linalg.depthwise_conv_2d_nhwc_hwc ins(%x7, %w7 : tensor<1x10x10x8xf32>, tensor<7x7x8xf32>) outs(%o7 : tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32>
  // expected-remark @below {{linalg.depthwise_conv_2d_nhwc_hwc runs as loops: only f32 depthwise convolutions become vector code}}
  %dh = linalg.depthwise_conv_2d_nhwc_hwc ins(%xh, %wdh : tensor<1x4x4x8xf16>, tensor<1x1x8xf16>) outs(%oh : tensor<1x4x4x8xf16>) -> tensor<1x4x4x8xf16>
  return %c, %h, %d7, %dh : tensor<?x?x?x8xf32>, tensor<1x4x4x8xf16>, tensor<1x4x4x8xf32>, tensor<1x4x4x8xf16>
}

// -----

// NCHW depthwise convs (PyTorch's): static f32 ones with strides up to 2 become
// vector code over each channel's flattened image; others stay loops.
func.func @depthwise_nchw(%x: tensor<1x8x10x10xf32>, %w: tensor<8x3x3xf32>, %o: tensor<1x8x8x8xf32>,
                          %o3: tensor<1x8x3x3xf32>) -> (tensor<1x8x8x8xf32>, tensor<1x8x3x3xf32>) {
  // expected-remark @below {{linalg.depthwise_conv_2d_nchw_chw is not a matmul: it becomes vector code over each channel's flattened image}}
  %a = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x8x10x10xf32>, tensor<8x3x3xf32>) outs(%o : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  // expected-remark @below {{linalg.depthwise_conv_2d_nchw_chw runs as loops: its stride is larger than 2}}
  %b = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<3> : tensor<2xi64>} ins(%x, %w : tensor<1x8x10x10xf32>, tensor<8x3x3xf32>) outs(%o3 : tensor<1x8x3x3xf32>) -> tensor<1x8x3x3xf32>
  return %a, %b : tensor<1x8x8x8xf32>, tensor<1x8x3x3xf32>
}

// -----

// Small static matmuls run inline; f16 ones stay loops. Math without a
// polynomial is a libm call per element; exp is not, except in precise mode.
// PRECISE: remark: math.sin is a libm call per element (--mips-precise-math)
// PRECISE: remark: math.exp is a libm call per element (--mips-precise-math)
func.func @matmuls_and_math(%a: tensor<4x4xf32>, %h: tensor<8x8xf16>, %x: f32)
    -> (tensor<4x4xf32>, tensor<8x8xf16>, f32) {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  // expected-remark @below {{matmul 4x4x4 (MxNxK) f32 x f32 -> f32 runs as inline vector code}}
  %m = linalg.matmul ins(%a, %a : tensor<4x4xf32>, tensor<4x4xf32>) outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
  // expected-remark @below {{linalg.matmul (f16 x f16 -> f16) does not reach libmips}}
  %hm = linalg.matmul ins(%h, %h : tensor<8x8xf16>, tensor<8x8xf16>) outs(%h : tensor<8x8xf16>) -> tensor<8x8xf16>
  // expected-remark @below {{math.sin on f32 is a libm call per element: no polynomial for it}}
  %s = math.sin %x : f32
  %t = math.exp %s : f32
  return %m, %hm, %t : tensor<4x4xf32>, tensor<8x8xf16>, f32
}

// -----

// A batch of attention heads reaches libmips as one op (one batched call, or a call
// per head); a batch of tiny entries runs inline, entry by entry.
func.func @batches(%q: tensor<?x64x32xf32>, %k: tensor<?x64x32xf32>, %s: tensor<?x64x64xf32>,
                   %a: tensor<2x4x4xf32>, %b: tensor<2x4x4xf32>, %c: tensor<2x4x4xf32>)
    -> (tensor<?x64x64xf32>, tensor<2x4x4xf32>) {
  // expected-remark @below {{batch of ? matmuls 64x64x32 (MxNxK) f32 x f32 -> f32 reaches libmips}}
  %r = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>]
         ins(%q, %k : tensor<?x64x32xf32>, tensor<?x64x32xf32>) outs(%s : tensor<?x64x64xf32>) -> tensor<?x64x64xf32>
  // expected-remark @below {{matmul 4x4x4 (MxNxK) f32 x f32 -> f32 runs as inline vector code (small and static: cheaper than a call)}}
  %t = linalg.batch_matmul ins(%a, %b : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%c : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  return %r, %t : tensor<?x64x64xf32>, tensor<2x4x4xf32>
}
