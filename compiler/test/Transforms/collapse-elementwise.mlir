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
