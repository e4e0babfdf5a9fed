// RUN: mips-opt %s -split-input-file --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --convert-mips-to-vector | FileCheck %s

// An inlined matmul is straight-line vector code, no call: rows of B and C as
// vector loads when both are unit-stride (checked at run time), an FMA of a
// broadcast A element per (i, l); any other view runs as loops.
// CHECK-LABEL: func.func @inlined_f32
// CHECK-SAME:    %[[A:.*]]: memref<2x3xf32>, %[[B:.*]]: memref<3x4xf32>, %[[C:.*]]: memref<2x4xf32>
// CHECK-NOT:     call
// CHECK:         %[[BM:.*]], %{{.*}}, %{{.*}}:2, %[[BS:.*]]:2 = memref.extract_strided_metadata %[[B]]
// CHECK:         %[[CM:.*]], %{{.*}}, %{{.*}}:2, %[[CS:.*]]:2 = memref.extract_strided_metadata %[[C]]
// CHECK-DAG:     %[[ONE:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C1:.*]] = arith.cmpi eq, %[[CS]]#1, %[[ONE]]
// CHECK-DAG:     %[[B1:.*]] = arith.cmpi eq, %[[BS]]#1, %[[ONE]]
// CHECK:         %[[UNIT:.*]] = arith.andi %[[B1]], %[[C1]]
// CHECK:         scf.if %[[UNIT]] {
// CHECK:           %[[BV:.*]] = memref.reinterpret_cast %[[BM]] to offset: [%{{.*}}], sizes: [3, 4], strides: [%[[BS]]#0, 1]
// CHECK:           %[[CV:.*]] = memref.reinterpret_cast %[[CM]] to offset: [%{{.*}}], sizes: [2, 4], strides: [%[[CS]]#0, 1]
// CHECK-COUNT-3:   vector.load %[[BV]]{{.*}} : memref<3x4xf32, strided<[?, 1], offset: ?>>, vector<4xf32>
// CHECK:           %[[C0:.*]] = vector.load %[[CV]]
// CHECK:           %[[A00:.*]] = memref.load %[[A]][%{{.*}}, %{{.*}}] : memref<2x3xf32>
// CHECK:           %[[S:.*]] = vector.broadcast %[[A00]] : f32 to vector<4xf32>
// CHECK:           vector.fma %[[S]], %{{.*}}, %[[C0]]
// CHECK-COUNT-2:   vector.fma
// CHECK:           vector.store %{{.*}}, %[[CV]]
// CHECK:           vector.load %[[CV]]
// CHECK-COUNT-3:   vector.fma
// CHECK:           vector.store %{{.*}}, %[[CV]]
// CHECK:         } else {
// CHECK:           linalg.matmul
// CHECK:         }
// CHECK-NOT:     call
func.func @inlined_f32(%a: memref<2x3xf32>, %b: memref<3x4xf32>, %c: memref<2x4xf32>) {
  mips.matmul inlined ins(%a, %b : memref<2x3xf32>, memref<3x4xf32>) outs(%c : memref<2x4xf32>)
  return
}

// -----

// int8: operands sign-extended to i32, multiply and add in i32; overwrite starts
// from zero rows instead of loading C. A transposed B has no unit-stride rows: loops.
// CHECK-LABEL: func.func @inlined_i8
// CHECK:         scf.if
// CHECK:           vector.load {{.*}} : memref<3x4xi8, strided<[?, 1], offset: ?>>, vector<4xi8>
// CHECK:           arith.extsi %{{.*}} : vector<4xi8> to vector<4xi32>
// CHECK:           arith.constant dense<0> : vector<4xi32>
// CHECK:           arith.extsi %{{.*}} : i8 to i32
// CHECK:           arith.muli %{{.*}} : vector<4xi32>
// CHECK:           arith.addi %{{.*}} : vector<4xi32>
// CHECK:         } else {
// CHECK:           linalg.fill
// CHECK:           linalg.matmul
// CHECK-LABEL: func.func @inlined_transposed_rhs
// CHECK-NOT:     scf.if
// CHECK-NOT:     vector.load
// CHECK:         linalg.matmul indexing_maps
// CHECK-NOT:     call
func.func @inlined_i8(%a: memref<2x3xi8>, %b: memref<3x4xi8, strided<[?, ?], offset: ?>>, %c: memref<2x4xi32>) {
  mips.matmul overwrite inlined ins(%a, %b : memref<2x3xi8>, memref<3x4xi8, strided<[?, ?], offset: ?>>) outs(%c : memref<2x4xi32>)
  return
}
func.func @inlined_transposed_rhs(%a: memref<2x3xf32>, %bt: memref<4x3xf32>, %c: memref<2x4xf32>) {
  mips.matmul transpose_rhs inlined ins(%a, %bt : memref<2x3xf32>, memref<4x3xf32>) outs(%c : memref<2x4xf32>)
  return
}

// -----

// Bufferization copies a C it may not write into a fresh buffer just before the
// matmul: inline code reads C's rows from the copy's source instead (its rows must
// be unit-stride too), and only the loops still copy.
// CHECK-LABEL: func.func @inlined_reads_copied_c
// CHECK-SAME:    %{{.*}}: memref<2x3xf32>, %{{.*}}: memref<3x4xf32>, %[[SRC:.*]]: memref<2x4xf32, strided<[?, ?], offset: ?>>
// CHECK:         %[[FRESH:.*]] = memref.alloc() : memref<2x4xf32>
// CHECK-NOT:     memref.copy
// CHECK:         %[[SM:.*]], %{{.*}}, %{{.*}}:2, %[[SS:.*]]:2 = memref.extract_strided_metadata %[[SRC]]
// CHECK:         %[[S1:.*]] = arith.cmpi eq, %[[SS]]#1, %{{.*}}
// CHECK:         %[[UNIT:.*]] = arith.andi %{{.*}}, %[[S1]]
// CHECK:         scf.if %[[UNIT]] {
// CHECK-NOT:       memref.copy
// CHECK:           %[[SV:.*]] = memref.reinterpret_cast %[[SM]] to offset: [%{{.*}}], sizes: [2, 4], strides: [%[[SS]]#0, 1]
// CHECK:           vector.load %[[SV]]
// CHECK:           vector.store
// CHECK:           vector.load %[[SV]]
// CHECK:           vector.store
// CHECK:         } else {
// CHECK-NEXT:      memref.copy %[[SRC]], %[[FRESH]]
// CHECK-NEXT:      linalg.matmul
// CHECK:         }
// CHECK:         return %[[FRESH]]
func.func @inlined_reads_copied_c(%a: memref<2x3xf32>, %b: memref<3x4xf32>,
                                  %c: memref<2x4xf32, strided<[?, ?], offset: ?>>) -> memref<2x4xf32> {
  %fresh = memref.alloc() : memref<2x4xf32>
  memref.copy %c, %fresh : memref<2x4xf32, strided<[?, ?], offset: ?>> to memref<2x4xf32>
  mips.matmul inlined ins(%a, %b : memref<2x3xf32>, memref<3x4xf32>) outs(%fresh : memref<2x4xf32>)
  return %fresh : memref<2x4xf32>
}

// -----

// The copy stays where C is not a fresh buffer, where something comes between,
// and where the source is a view of the fresh buffer itself.
// CHECK-LABEL: func.func @copy_into_argument
// CHECK:         memref.copy
// CHECK-NEXT:    memref.extract_strided_metadata
// CHECK-LABEL: func.func @copy_not_adjacent
// CHECK:         memref.copy
// CHECK-NEXT:    memref.store
// CHECK-LABEL: func.func @copy_from_own_view
// CHECK:         memref.copy
// CHECK-NEXT:    memref.extract_strided_metadata
// CHECK-LABEL: func.func @copy_from_own_base
// CHECK:         memref.copy
// CHECK-NEXT:    memref.extract_strided_metadata
// CHECK-LABEL: func.func @copy_from_other_memory_space
// CHECK:         memref.copy
// CHECK-NEXT:    memref.extract_strided_metadata
func.func @copy_into_argument(%a: memref<2x3xf32>, %b: memref<3x4xf32>, %c: memref<2x4xf32>,
                              %d: memref<2x4xf32>) {
  memref.copy %d, %c : memref<2x4xf32> to memref<2x4xf32>
  mips.matmul inlined ins(%a, %b : memref<2x3xf32>, memref<3x4xf32>) outs(%c : memref<2x4xf32>)
  return
}
func.func @copy_not_adjacent(%a: memref<2x3xf32>, %b: memref<3x4xf32>, %d: memref<2x4xf32>) -> memref<2x4xf32> {
  %zero = arith.constant 0.0 : f32
  %i = arith.constant 1 : index
  %fresh = memref.alloc() : memref<2x4xf32>
  memref.copy %d, %fresh : memref<2x4xf32> to memref<2x4xf32>
  memref.store %zero, %fresh[%i, %i] : memref<2x4xf32>
  mips.matmul inlined ins(%a, %b : memref<2x3xf32>, memref<3x4xf32>) outs(%fresh : memref<2x4xf32>)
  return %fresh : memref<2x4xf32>
}
func.func @copy_from_own_view(%a: memref<2x3xf32>, %b: memref<3x4xf32>) -> memref<2x4xf32> {
  %fresh = memref.alloc() : memref<2x4xf32>
  %view = memref.cast %fresh : memref<2x4xf32> to memref<2x4xf32, strided<[?, ?], offset: ?>>
  memref.copy %view, %fresh : memref<2x4xf32, strided<[?, ?], offset: ?>> to memref<2x4xf32>
  mips.matmul inlined ins(%a, %b : memref<2x3xf32>, memref<3x4xf32>) outs(%fresh : memref<2x4xf32>)
  return %fresh : memref<2x4xf32>
}
func.func @copy_from_own_base(%a: memref<2x3xf32>, %b: memref<3x4xf32>) -> memref<2x4xf32> {
  %fresh = memref.alloc() : memref<2x4xf32>
  %base, %offset, %sizes:2, %strides:2 = memref.extract_strided_metadata %fresh : memref<2x4xf32> -> memref<f32>, index, index, index, index, index
  %view = memref.reinterpret_cast %base to offset: [0], sizes: [2, 4], strides: [4, 1] : memref<f32> to memref<2x4xf32>
  memref.copy %view, %fresh : memref<2x4xf32> to memref<2x4xf32>
  mips.matmul inlined ins(%a, %b : memref<2x3xf32>, memref<3x4xf32>) outs(%fresh : memref<2x4xf32>)
  return %fresh : memref<2x4xf32>
}
func.func @copy_from_other_memory_space(%a: memref<2x3xf32>, %b: memref<3x4xf32>,
                                        %d: memref<2x4xf32, 1>) -> memref<2x4xf32> {
  %fresh = memref.alloc() : memref<2x4xf32>
  memref.copy %d, %fresh : memref<2x4xf32, 1> to memref<2x4xf32>
  mips.matmul inlined ins(%a, %b : memref<2x3xf32>, memref<3x4xf32>) outs(%fresh : memref<2x4xf32>)
  return %fresh : memref<2x4xf32>
}
