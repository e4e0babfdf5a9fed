// RUN: mips-opt %s --mips-copies-as-loops | FileCheck %s
// RUN: mips-opt %s --mips-copies-as-loops=all=true | FileCheck %s --check-prefix=ALL

// A copy into the interior of a padded buffer (what tensor.pad bufferizes to) is
// not contiguous on one side: a loop nest, not a runtime call per element. A
// contiguous copy stays memref.copy (memcpy) unless asked for all of them; an
// unranked one always stays.
// CHECK-LABEL: func.func @copies
// CHECK:         linalg.copy ins(%arg0 : memref<1x3x32x32xf32>) outs(%{{.*}} : memref<1x3x32x32xf32, strided<[4332, 1444, 38, 1], offset: 117>>)
// CHECK:         memref.copy %arg0, %arg2
// CHECK:         memref.copy %arg3, %arg4
// ALL-LABEL: func.func @copies
// ALL:           linalg.copy ins(%arg0 {{.*}}) outs(%{{.*}}
// ALL:           linalg.copy ins(%arg0 : memref<1x3x32x32xf32>) outs(%arg2 : memref<1x3x32x32xf32>)
// ALL:           memref.copy %arg3, %arg4
func.func @copies(%x: memref<1x3x32x32xf32>, %padded: memref<1x3x38x38xf32>, %y: memref<1x3x32x32xf32>,
                  %u: memref<*xf32>, %v: memref<*xf32>) {
  %interior = memref.subview %padded[0, 0, 3, 3] [1, 3, 32, 32] [1, 1, 1, 1] : memref<1x3x38x38xf32> to memref<1x3x32x32xf32, strided<[4332, 1444, 38, 1], offset: 117>>
  memref.copy %x, %interior : memref<1x3x32x32xf32> to memref<1x3x32x32xf32, strided<[4332, 1444, 38, 1], offset: 117>>
  memref.copy %x, %y : memref<1x3x32x32xf32> to memref<1x3x32x32xf32>
  memref.copy %u, %v : memref<*xf32> to memref<*xf32>
  return
}
