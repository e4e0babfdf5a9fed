// RUN: mips-opt %s --mips-vectorize-row-reductions --canonicalize --split-input-file | FileCheck %s

// A row maximum (linalg.generic, maximumf): whole scalable vectors unmasked, a
// NaN-ignoring maximum and lane sums (NaN once a NaN was added: one instruction
// per vector), the masked tail padded with -inf only where there is one, then the
// extreme combined with the output's value, NaN if the tail held one or the whole
// vectors do when looked at again (only where a lane sum is NaN).
// CHECK-LABEL: func.func @row_max
// CHECK-DAG:     %[[NINF:.*]] = arith.constant dense<0xFF800000> : vector<[2]xf32>
// CHECK-DAG:     %[[ZEROS:.*]] = arith.constant dense<0.000000e+00> : vector<[2]xf32>
// CHECK-DAG:     %[[NAN:.*]] = arith.constant 0x7FC00000 : f32
// CHECK-DAG:     %[[FALSE:.*]] = arith.constant false
// CHECK:         scf.for %[[I:.*]] = %c0 to %c7 step %c1 {
// CHECK:           %[[STEP:.*]] = arith.muli %{{.*}}, %c2 : index
// CHECK:           %[[REST:.*]] = arith.remui %c19, %[[STEP]]
// CHECK:           %[[WHOLE:.*]] = arith.subi %c19, %[[REST]]
// CHECK:           %[[INIT:.*]] = memref.load %arg1[%[[I]]]
// CHECK:           %[[ACC:.*]]:2 = scf.for %[[J:.*]] = %c0 to %[[WHOLE]] step %[[STEP]] iter_args(%[[M:.*]] = %[[NINF]], %[[S:.*]] = %[[ZEROS]])
// CHECK:             %[[V:.*]] = vector.load %arg0[%[[I]], %[[J]]] : memref<7x19xf32>, vector<[2]xf32>
// CHECK:             arith.maxnumf %[[M]], %[[V]] : vector<[2]xf32>
// CHECK:             arith.addf %[[S]], %[[V]] : vector<[2]xf32>
// CHECK-NOT:         arith.cmpf
// CHECK:           %[[HAS:.*]] = arith.cmpi ne, %[[REST]], %c0
// CHECK:           %[[TAIL:.*]]:2 = scf.if %[[HAS]] -> (vector<[2]xf32>, i1) {
// CHECK:             %[[MASK:.*]] = vector.create_mask %[[REST]] : vector<[2]xi1>
// CHECK:             %[[T:.*]] = vector.maskedload %arg0[%[[I]], %[[WHOLE]]], %[[MASK]], %[[NINF]]
// CHECK:             arith.cmpf uno, %[[T]], %[[T]]
// CHECK:           } else {
// CHECK:             scf.yield %[[ACC]]#0, %[[FALSE]]
// CHECK:           %[[MAX:.*]] = vector.reduction <maxnumf>, %[[TAIL]]#0
// CHECK:           %[[WITH:.*]] = arith.maximumf %[[MAX]], %[[INIT]] : f32
// CHECK:           %[[SUM:.*]] = vector.reduction <add>, %[[ACC]]#1
// CHECK:           %[[SEEN:.*]] = arith.cmpf uno, %[[SUM]]
// CHECK:           %[[AGAIN:.*]] = scf.if %[[SEEN]] -> (i1) {
// CHECK:             scf.for %{{.*}} = %c0 to %[[WHOLE]] step %[[STEP]]
// CHECK:               arith.cmpf uno
// CHECK:           %[[SAW:.*]] = arith.ori %[[TAIL]]#1, %[[AGAIN]] : i1
// CHECK:           %[[R:.*]] = arith.select %[[SAW]], %[[NAN]], %[[WITH]] : f32
// CHECK:           memref.store %[[R]], %arg1[%[[I]]]
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
func.func @row_max(%x: memref<7x19xf32>, %m: memref<7xf32>) {
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%x : memref<7x19xf32>) outs(%m : memref<7xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %y = arith.maximumf %a, %acc : f32
    linalg.yield %y : f32
  }
  return
}

// -----

// A row sum (linalg.reduce) stays in order: each vector is reduced into the
// running sum in turn; the tail, where there is one, is padded with -0, which adds
// nothing.
// CHECK-LABEL: func.func @row_sum
// CHECK-DAG:     %[[NZERO:.*]] = arith.constant dense<-0.000000e+00> : vector<[2]xf32>
// CHECK:         %[[INIT:.*]] = memref.load %arg1
// CHECK:         %[[S:.*]] = scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[INIT]]) -> (f32)
// CHECK:           %[[V:.*]] = vector.load %arg0
// CHECK:           vector.reduction <add>, %[[V]], %[[ACC]] : vector<[2]xf32> into f32
// CHECK:         %[[R:.*]] = scf.if
// CHECK:           vector.maskedload %arg0{{.*}}, %[[NZERO]]
// CHECK:           vector.reduction <add>, %{{.*}}, %[[S]] : vector<[2]xf32> into f32
// CHECK:         } else {
// CHECK:           scf.yield %[[S]] : f32
// CHECK:         memref.store %[[R]], %arg1
func.func @row_sum(%x: memref<2x3x40xf32, strided<[240, 80, 1], offset: ?>>, %s: memref<2x3xf32>) {
  linalg.reduce ins(%x : memref<2x3x40xf32, strided<[240, 80, 1], offset: ?>>) outs(%s : memref<2x3xf32>) dimensions = [2]
    (%a: f32, %acc: f32) {
      %y = arith.addf %acc, %a : f32
      linalg.yield %y : f32
    }
  return
}

// -----

// Through a memref.cast to the general layout (a function's dense copy casts its
// arguments back for an unchanged body): the cast's source is read.
// CHECK-LABEL: func.func @through_cast
// CHECK:         vector.load %arg0
func.func @through_cast(%x: memref<?x?xf32, strided<[?, 1], offset: ?>>, %s: memref<?xf32>) {
  %g = memref.cast %x : memref<?x?xf32, strided<[?, 1], offset: ?>> to memref<?x?xf32, strided<[?, ?], offset: ?>>
  linalg.reduce ins(%g : memref<?x?xf32, strided<[?, ?], offset: ?>>) outs(%s : memref<?xf32>) dimensions = [1]
    (%a: f32, %acc: f32) {
      %y = arith.addf %acc, %a : f32
      linalg.yield %y : f32
    }
  return
}

// -----

// Left as loops: a reduction over another dimension, a row with an unknown
// stride, fast-math flags, integers, a body that does more than combine.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT:     vector.
// CHECK-COUNT-5: linalg.
// CHECK:         return
#id2 = affine_map<(i, j) -> (i, j)>
#row2 = affine_map<(i, j) -> (i)>
func.func @left_alone(%x: memref<4x8xf32>, %c: memref<8xf32>, %xs: memref<4x8xf32, strided<[?, ?], offset: ?>>,
                      %r: memref<4xf32>, %xi: memref<4x8xi32>, %ri: memref<4xi32>) {
  linalg.reduce ins(%x : memref<4x8xf32>) outs(%c : memref<8xf32>) dimensions = [0]
    (%a: f32, %acc: f32) { %y = arith.addf %acc, %a : f32
      linalg.yield %y : f32 }
  linalg.reduce ins(%xs : memref<4x8xf32, strided<[?, ?], offset: ?>>) outs(%r : memref<4xf32>) dimensions = [1]
    (%a: f32, %acc: f32) { %y = arith.addf %acc, %a : f32
      linalg.yield %y : f32 }
  linalg.reduce ins(%x : memref<4x8xf32>) outs(%r : memref<4xf32>) dimensions = [1]
    (%a: f32, %acc: f32) { %y = arith.addf %acc, %a fastmath<reassoc> : f32
      linalg.yield %y : f32 }
  linalg.reduce ins(%xi : memref<4x8xi32>) outs(%ri : memref<4xi32>) dimensions = [1]
    (%a: i32, %acc: i32) { %y = arith.addi %acc, %a : i32
      linalg.yield %y : i32 }
  linalg.generic {indexing_maps = [#id2, #row2], iterator_types = ["parallel", "reduction"]} ins(%x : memref<4x8xf32>) outs(%r : memref<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %sq = arith.mulf %a, %a : f32
    %y = arith.addf %sq, %acc : f32
    linalg.yield %y : f32
  }
  return
}
