// RUN: mips-opt %s --mips-forward-argument-copies --split-input-file | FileCheck %s

// A dense argument copied only to be collapsed and read by mips.matmul is
// collapsed in place; the copy, its buffer and its dealloc are gone.
// CHECK-LABEL: func.func @filter_in_place
// CHECK-NOT:     memref.copy
// CHECK-NOT:     memref.alloc()
// CHECK:         %[[W:.*]] = memref.collapse_shape %arg1 {{\[\[}}0, 1, 2], [3]] : memref<3x3x16x32xf32, strided<[1536, 512, 32, 1], offset: ?>> into memref<144x32xf32, strided<[32, 1], offset: ?>>
// CHECK:         mips.matmul overwrite ins(%arg0, %[[W]] :
// CHECK-NOT:     memref.dealloc
func.func @filter_in_place(%a: memref<64x144xf32>, %w: memref<3x3x16x32xf32, strided<[1536, 512, 32, 1], offset: ?>>,
                           %c: memref<64x32xf32>) {
  %copy = memref.alloc() : memref<3x3x16x32xf32>
  memref.copy %w, %copy : memref<3x3x16x32xf32, strided<[1536, 512, 32, 1], offset: ?>> to memref<3x3x16x32xf32>
  %b = memref.collapse_shape %copy [[0, 1, 2], [3]] : memref<3x3x16x32xf32> into memref<144x32xf32>
  mips.matmul ins(%a, %b : memref<64x144xf32>, memref<144x32xf32>) outs(%c : memref<64x32xf32>) {overwrite}
  memref.dealloc %copy : memref<3x3x16x32xf32>
  return
}

// -----

// Kept: unknown strides (the collapse is not valid on every layout), an argument
// the function also writes, a copy that is itself written, a copy read as C, and
// a copy whose collapse is viewed again (the view's type depends on the layout).
// CHECK-LABEL: func.func @kept
// CHECK-COUNT-5: memref.copy
func.func @kept(%a: memref<4x16xf32>, %s: memref<2x2x4x8xf32, strided<[?, ?, ?, ?], offset: ?>>,
                %w: memref<2x2x4x8xf32>, %x: memref<2x2x4x8xf32>, %y: memref<2x2x4x8xf32>, %c: memref<4x8xf32>,
                %bb: memref<16x32xf32>) {
  %cst = arith.constant 1.0 : f32
  %0 = memref.alloc() : memref<2x2x4x8xf32>
  memref.copy %s, %0 : memref<2x2x4x8xf32, strided<[?, ?, ?, ?], offset: ?>> to memref<2x2x4x8xf32>
  %b0 = memref.collapse_shape %0 [[0, 1, 2], [3]] : memref<2x2x4x8xf32> into memref<16x8xf32>
  mips.matmul ins(%a, %b0 : memref<4x16xf32>, memref<16x8xf32>) outs(%c : memref<4x8xf32>) {overwrite}

  %1 = memref.alloc() : memref<2x2x4x8xf32>
  memref.copy %w, %1 : memref<2x2x4x8xf32> to memref<2x2x4x8xf32>
  %b1 = memref.collapse_shape %1 [[0, 1, 2], [3]] : memref<2x2x4x8xf32> into memref<16x8xf32>
  mips.matmul ins(%a, %b1 : memref<4x16xf32>, memref<16x8xf32>) outs(%c : memref<4x8xf32>) {overwrite}
  linalg.fill ins(%cst : f32) outs(%w : memref<2x2x4x8xf32>)

  %2 = memref.alloc() : memref<2x2x4x8xf32>
  memref.copy %x, %2 : memref<2x2x4x8xf32> to memref<2x2x4x8xf32>
  %b2 = memref.collapse_shape %2 [[0, 1, 2], [3]] : memref<2x2x4x8xf32> into memref<16x8xf32>
  linalg.fill ins(%cst : f32) outs(%b2 : memref<16x8xf32>)
  mips.matmul ins(%a, %b2 : memref<4x16xf32>, memref<16x8xf32>) outs(%c : memref<4x8xf32>) {overwrite}

  %3 = memref.alloc() : memref<2x2x4x8xf32>
  memref.copy %y, %3 : memref<2x2x4x8xf32> to memref<2x2x4x8xf32>
  %c3 = memref.collapse_shape %3 [[0, 1], [2, 3]] : memref<2x2x4x8xf32> into memref<4x32xf32>
  mips.matmul ins(%a, %bb : memref<4x16xf32>, memref<16x32xf32>) outs(%c3 : memref<4x32xf32>)

  %4 = memref.alloc() : memref<2x2x4x8xf32>
  memref.copy %y, %4 : memref<2x2x4x8xf32> to memref<2x2x4x8xf32>
  %c4 = memref.collapse_shape %4 [[0, 1, 2, 3]] : memref<2x2x4x8xf32> into memref<128xf32>
  %e4 = memref.expand_shape %c4 [[0, 1]] output_shape [16, 8] : memref<128xf32> into memref<16x8xf32>
  mips.matmul ins(%a, %e4 : memref<4x16xf32>, memref<16x8xf32>) outs(%c : memref<4x8xf32>) {overwrite}
  return
}
