// RUN: mips-opt %s --mips-collapse-elementwise | FileCheck %s

// An elementwise op over contiguous buffers runs over rank-1 views of them.
// CHECK-LABEL: func.func @relu_dense
// CHECK-DAG:     %[[X:.*]] = memref.collapse_shape %{{.*}} {{\[\[}}0, 1, 2, 3]] : memref<1x34x34x16xf32, strided<[18496, 544, 16, 1], offset: ?>> into memref<18496xf32, strided<[1], offset: ?>>
// CHECK-DAG:     %[[Y:.*]] = memref.collapse_shape %{{.*}} {{\[\[}}0, 1, 2, 3]] : memref<1x34x34x16xf32> into memref<18496xf32>
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel"]} ins(%[[X]] : {{.*}}) outs(%[[Y]] : memref<18496xf32>)
#id = affine_map<(n, h, w, c) -> (n, h, w, c)>
func.func @relu_dense(%x: memref<1x34x34x16xf32, strided<[18496, 544, 16, 1], offset: ?>>, %y: memref<1x34x34x16xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : memref<1x34x34x16xf32, strided<[18496, 544, 16, 1], offset: ?>>) outs(%y : memref<1x34x34x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %a, %zero : f32
    linalg.yield %m : f32
  }
  return
}

// A bias per channel over NCHW images: the pixels (the output's trailing dims, which
// the bias does not index) merge; the bias stays as it is.
// CHECK-LABEL: func.func @bias_over_pixels
// CHECK:         %[[Y:.*]] = memref.collapse_shape %{{.*}} {{\[\[}}0], [1], [2, 3]] : memref<1x64x15x15xf32> into memref<1x64x225xf32>
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel"]} ins(%{{.*}} : memref<64xf32>) outs(%[[Y]] : memref<1x64x225xf32>)
#channel = affine_map<(n, c, h, w) -> (c)>
func.func @bias_over_pixels(%bias: memref<64xf32>, %y: memref<1x64x15x15xf32>) {
  linalg.generic {indexing_maps = [#channel, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%bias : memref<64xf32>) outs(%y : memref<1x64x15x15xf32>) {
  ^bb0(%b: f32, %o: f32):
    linalg.yield %b : f32
  }
  return
}

// An operand that runs along only some of the trailing dims (here the last): left alone.
// CHECK-LABEL: func.func @partly_broadcast
// CHECK-NOT:     memref.collapse_shape
// CHECK:         return
#last = affine_map<(i, j, k) -> (k)>
#id3 = affine_map<(i, j, k) -> (i, j, k)>
func.func @partly_broadcast(%row: memref<8xf32>, %o: memref<2x4x8xf32>) {
  linalg.generic {indexing_maps = [#last, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%row : memref<8xf32>) outs(%o : memref<2x4x8xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  }
  return
}

// Unknown strides, a padded row, or a transposing map: left as they are.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT:     memref.collapse_shape
// CHECK:         return
#t = affine_map<(i, j) -> (j, i)>
#id2 = affine_map<(i, j) -> (i, j)>
func.func @left_alone(%s: memref<4x8xf32, strided<[?, ?], offset: ?>>, %p: memref<4x8xf32, strided<[9, 1]>>,
                      %d: memref<8x4xf32>, %o: memref<4x8xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%s : memref<4x8xf32, strided<[?, ?], offset: ?>>) outs(%o : memref<4x8xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  }
  linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%p : memref<4x8xf32, strided<[9, 1]>>) outs(%o : memref<4x8xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  }
  linalg.generic {indexing_maps = [#t, #id2], iterator_types = ["parallel", "parallel"]} ins(%d : memref<8x4xf32>) outs(%o : memref<4x8xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  }
  return
}
