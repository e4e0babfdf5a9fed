// RUN: mips-opt %s --mips-vectorize-depthwise-conv="lanes=2 scalable=true" --canonicalize --split-input-file | FileCheck %s
// RUN: mips-opt %s --mips-vectorize-depthwise-conv --canonicalize --split-input-file | FileCheck %s --check-prefix=FIXED

// A depthwise conv on buffers with contiguous channels: loops over channel blocks
// (vscale x 2 lanes, the last one masked), rows and tiles of 4 pixels; the 9
// weights loaded once per block; per kernel row, 9 input vectors for the 12 taps
// of 4 pixels at stride 2 (3 are shared); the fill before it becomes the sums'
// start (a splat of its value), so the output is never read.
// CHECK-LABEL: func.func @dw_stride2
// CHECK-NOT:     linalg.fill
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<[2]xf32>
// CHECK-DAG:     %[[VS:.*]] = vector.vscale
// CHECK:         %[[STEP:.*]] = arith.muli %[[VS]], %c2
// CHECK:         scf.for %[[C:.*]] = %c0 to %c19 step %[[STEP]]
// CHECK:           %[[LEFT:.*]] = arith.subi %c19, %[[C]]
// CHECK:           %[[MASK:.*]] = vector.create_mask %[[LEFT]] : vector<[2]xi1>
// CHECK-COUNT-9:   vector.maskedload %arg1[{{.*}}, %[[C]]], %[[MASK]]
// CHECK:           scf.for %[[ROW:.*]] = %c0 to %c4 step %c1
// CHECK:             scf.for %{{.*}} = %c0 to %c8 step %c4
// CHECK-NOT:           vector.maskedload %arg2
// CHECK:               vector.maskedload %arg0
// CHECK-NEXT:          vector.fma %{{.*}}, %{{.*}}, %[[ZERO]]
// CHECK-COUNT-35:      vector.fma
// CHECK-COUNT-4:       vector.maskedstore %arg2[%c0, %[[ROW]], %{{.*}}, %[[C]]], %[[MASK]]
// CHECK-NOT:           vector.fma
// CHECK:             }
// CHECK:         return
// FIXED-LABEL: func.func @dw_stride2
// FIXED-NOT:     vector.vscale
// FIXED:         scf.for %{{.*}} = %c0 to %c19 step %c8
// FIXED:           vector.create_mask %{{.*}} : vector<8xi1>
func.func @dw_stride2(%x: memref<1x9x17x19xf32>, %w: memref<3x3x19xf32>, %o: memref<1x4x8x19xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%o : memref<1x4x8x19xf32>)
  linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%x, %w : memref<1x9x17x19xf32>, memref<3x3x19xf32>) outs(%o : memref<1x4x8x19xf32>)
  return
}

// -----

// Without a fill just before, each pixel's sum starts from the output; 5 output
// columns are a tile of 4 and one pixel on its own.
// CHECK-LABEL: func.func @dw_accumulate
// CHECK-NOT:     vector.broadcast
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK-COUNT-4:     vector.maskedload %arg2
// CHECK:             vector.maskedload %arg2[%c0, %{{.*}}, %c4, %{{.*}}]
// CHECK-COUNT-9:     vector.fma
// CHECK:             vector.maskedstore %arg2[%c0, %{{.*}}, %c4, %{{.*}}]
func.func @dw_accumulate(%x: memref<1x5x7x16xf32>, %w: memref<3x3x16xf32>, %o: memref<1x3x5x16xf32>) {
  linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : memref<1x5x7x16xf32>, memref<3x3x16xf32>) outs(%o : memref<1x3x5x16xf32>)
  return
}

// -----

// Left as they are: channels with an unknown stride (a function's strided copy),
// a 7x7 kernel (49 taps), i8 into i32, tensors.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT:     vector.
// CHECK-COUNT-4: linalg.depthwise_conv_2d_nhwc_hwc
// CHECK:         return
func.func @left_alone(%xs: memref<1x5x5x8xf32, strided<[?, ?, ?, ?], offset: ?>>, %w: memref<3x3x8xf32>,
                      %o: memref<1x3x3x8xf32>, %x7: memref<1x9x9x8xf32>, %w7: memref<7x7x8xf32>,
                      %xi: memref<1x5x5x8xi8>, %wi: memref<3x3x8xi8>, %oi: memref<1x3x3x8xi32>,
                      %xt: tensor<1x5x5x8xf32>, %wt: tensor<3x3x8xf32>, %ot: tensor<1x3x3x8xf32>) -> tensor<1x3x3x8xf32> {
  linalg.depthwise_conv_2d_nhwc_hwc ins(%xs, %w : memref<1x5x5x8xf32, strided<[?, ?, ?, ?], offset: ?>>, memref<3x3x8xf32>) outs(%o : memref<1x3x3x8xf32>)
  linalg.depthwise_conv_2d_nhwc_hwc ins(%x7, %w7 : memref<1x9x9x8xf32>, memref<7x7x8xf32>) outs(%o : memref<1x3x3x8xf32>)
  linalg.depthwise_conv_2d_nhwc_hwc ins(%xi, %wi : memref<1x5x5x8xi8>, memref<3x3x8xi8>) outs(%oi : memref<1x3x3x8xi32>)
  %t = linalg.depthwise_conv_2d_nhwc_hwc ins(%xt, %wt : tensor<1x5x5x8xf32>, tensor<3x3x8xf32>) outs(%ot : tensor<1x3x3x8xf32>) -> tensor<1x3x3x8xf32>
  return %t : tensor<1x3x3x8xf32>
}
