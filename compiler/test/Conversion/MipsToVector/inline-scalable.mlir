// RUN: mips-opt %s -split-input-file --convert-mips-to-vector="scalable-lanes=4" | FileCheck %s
// RUN: mips-opt %s -split-input-file --convert-mips-to-vector | FileCheck %s --check-prefix=FIXED

// On a target with scalable vectors, an inlined f32 matmul more than 8 columns
// wide runs on vector<[4]xf32>: C's columns in chunks of vscale * 4 under a mask,
// its rows in blocks of at most 8 (18 rows: 6 + 6 + 6) whose accumulators are
// carried through a loop over k that loads B's row once and multiplies it by a
// broadcast element of A per row. A, B and C are read through views with a unit
// inner stride, checked at run time; other views run as loops.
// CHECK-LABEL: func.func @wide_f32
// CHECK-SAME:    %[[A:.*]]: memref<18x5xf32>, %[[B:.*]]: memref<5x20xf32>, %[[C:.*]]: memref<18x20xf32>
// CHECK-NOT:     call
// CHECK:         %[[AM:.*]], %{{.*}}, %{{.*}}:2, %[[AS:.*]]:2 = memref.extract_strided_metadata %[[A]]
// CHECK:         %[[A1:.*]] = arith.cmpi eq, %[[AS]]#1, %{{.*}}
// CHECK:         %[[UNIT:.*]] = arith.andi %{{.*}}, %[[A1]]
// CHECK:         scf.if %[[UNIT]] {
// CHECK:           %[[AV:.*]] = memref.reinterpret_cast %[[AM]] to offset: [%{{.*}}], sizes: [18, 5], strides: [%[[AS]]#0, 1]
// CHECK:           %[[VS:.*]] = vector.vscale
// CHECK:           %[[STEP:.*]] = arith.muli %[[VS]], %{{.*}}
// CHECK:           scf.for %[[J:[a-z0-9_]+]] = %{{.*}} to %{{.*}} step %[[STEP]] {
// CHECK:             %[[MASK:.*]] = vector.create_mask %{{.*}} : vector<[4]xi1>
// CHECK:             %[[NONE:.*]] = ub.poison : vector<[4]xf32>
// CHECK-COUNT-6:     vector.maskedload {{.*}}[%{{.*}}, %[[J]]], %[[MASK]], %[[NONE]]
// CHECK:             %[[SUMS:.*]]:6 = scf.for %[[L:[a-z0-9_]+]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args
// CHECK:               %[[ROW:.*]] = vector.maskedload {{.*}}[%[[L]], %[[J]]], %[[MASK]], %[[NONE]]
// CHECK:               %[[X:.*]] = memref.load %[[AV]][%{{.*}}, %[[L]]]
// CHECK:               %[[BX:.*]] = vector.broadcast %[[X]] : f32 to vector<[4]xf32>
// CHECK:               vector.fma %[[BX]], %[[ROW]], %{{.*}} : vector<[4]xf32>
// CHECK-COUNT-5:       vector.fma
// CHECK:               scf.yield
// CHECK-COUNT-6:     vector.maskedstore {{.*}}, %[[MASK]]
// CHECK-COUNT-6:     vector.maskedload
// CHECK:             scf.for
// CHECK:             scf.for
// CHECK:         } else {
// CHECK:           linalg.matmul
// FIXED-LABEL: func.func @wide_f32
// FIXED-NOT:     vector.vscale
// FIXED:         vector.load {{.*}} : memref<5x20xf32, strided<[?, 1], offset: ?>>, vector<20xf32>
func.func @wide_f32(%a: memref<18x5xf32>, %b: memref<5x20xf32>, %c: memref<18x20xf32>) {
  mips.matmul inlined ins(%a, %b : memref<18x5xf32>, memref<5x20xf32>) outs(%c : memref<18x20xf32>)
  return
}

// -----

// A transposed A is read along its columns (A(i, l) at [l, i]); an overwrite
// starts from zero; 8 columns or fewer, and int8, keep fixed vectors.
// CHECK-LABEL: func.func @wide_transposed_lhs
// CHECK:         scf.for %[[J:[a-z0-9_]+]] =
// CHECK-NOT:       vector.maskedload
// CHECK:           scf.for %[[L:[a-z0-9_]+]] = {{.*}} iter_args(%{{.*}} = %[[Z:.*]], %{{.*}} = %[[Z]], %{{.*}} = %[[Z]], %{{.*}} = %[[Z]])
// CHECK:             memref.load %{{.*}}[%[[L]], %{{.*}}] : memref<3x4xf32, strided<[?, 1], offset: ?>>
// CHECK-LABEL: func.func @narrow_f32
// CHECK-NOT:     vector.vscale
// CHECK:         vector<8xf32>
// CHECK-LABEL: func.func @wide_i8
// CHECK-NOT:     vector.vscale
// CHECK:         vector<16xi32>
func.func @wide_transposed_lhs(%at: memref<3x4xf32>, %b: memref<3x16xf32>, %c: memref<4x16xf32>) {
  mips.matmul transpose_lhs overwrite inlined ins(%at, %b : memref<3x4xf32>, memref<3x16xf32>) outs(%c : memref<4x16xf32>)
  return
}
func.func @narrow_f32(%a: memref<4x3xf32>, %b: memref<3x8xf32>, %c: memref<4x8xf32>) {
  mips.matmul inlined ins(%a, %b : memref<4x3xf32>, memref<3x8xf32>) outs(%c : memref<4x8xf32>)
  return
}
func.func @wide_i8(%a: memref<2x3xi8>, %b: memref<3x16xi8>, %c: memref<2x16xi32>) {
  mips.matmul inlined ins(%a, %b : memref<2x3xi8>, memref<3x16xi8>) outs(%c : memref<2x16xi32>)
  return
}
