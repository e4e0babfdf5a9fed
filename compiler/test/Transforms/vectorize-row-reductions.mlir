// RUN: mips-opt %s --mips-vectorize-row-reductions --canonicalize --split-input-file | FileCheck %s
// RUN: mips-opt %s --mips-vectorize-row-reductions=fuse-producers=false --canonicalize --split-input-file | FileCheck %s --check-prefix=UNFUSED

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
// CHECK:           %[[ANY:.*]] = arith.cmpi ne, %[[WHOLE]], %c0
// CHECK:           %[[FIRST:.*]]:2 = scf.if %[[ANY]] -> (vector<[2]xf32>, vector<[2]xf32>) {
// CHECK:             %[[V0:.*]] = vector.load %arg0[%[[I]], %c0] : memref<7x19xf32>, vector<[2]xf32>
// CHECK:             scf.yield %[[V0]], %[[V0]]
// CHECK:           } else {
// CHECK:             scf.yield %[[NINF]], %[[ZEROS]]
// CHECK:           %[[ACC:.*]]:2 = scf.for %[[J:.*]] = %[[STEP]] to %[[WHOLE]] step %[[STEP]] iter_args(%[[M:.*]] = %[[FIRST]]#0, %[[S:.*]] = %[[FIRST]]#1)
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
// CHECK:         %[[FIRST:.*]] = scf.if %{{.*}} -> (f32) {
// CHECK:           vector.reduction <add>, %{{.*}}, %[[INIT]] : vector<[2]xf32> into f32
// CHECK:         } else {
// CHECK:           scf.yield %[[INIT]] : f32
// CHECK:         %[[S:.*]] = scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[FIRST]]) -> (f32)
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

// -----

// Softmax's exponentials and their sum: the elementwise generic that writes the
// row is fused with the row sum that reads it (the fill of the shared buffer
// between them starts the sum): each vector of exp(x - max) is stored and added in
// order, the row's maximum is read before its sum is stored over it, and the row
// is not loaded again. The masked tail adds -0 in its masked-off lanes. Both
// outputs are fresh buffers; the input may come through a cast.
// CHECK-LABEL: func.func @exp_and_sum
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG:     %[[NZERO:.*]] = arith.constant dense<-0.000000e+00> : vector<[2]xf32>
// CHECK-DAG:     %[[MS:.*]] = memref.alloc() : memref<5xf32>
// CHECK-DAG:     %[[E:.*]] = memref.alloc() : memref<5x19xf32>
// CHECK-NOT:     linalg.fill
// CHECK:         scf.for %[[I:.*]] = %c0 to %c5 step %c1 {
// CHECK:           %[[MAX:.*]] = memref.load %[[MS]][%[[I]]] : memref<5xf32>
// CHECK:           %[[MAXV:.*]] = vector.broadcast %[[MAX]] : f32 to vector<[2]xf32>
// CHECK:           scf.if
// CHECK:             %[[X0:.*]] = vector.load %arg0[%[[I]], %c0]
// CHECK:             %[[D0:.*]] = arith.subf %[[X0]], %[[MAXV]] : vector<[2]xf32>
// CHECK:             %[[E0:.*]] = math.exp %[[D0]] : vector<[2]xf32>
// CHECK:             vector.store %[[E0]], %[[E]][%[[I]], %c0]
// CHECK:             vector.reduction <add>, %[[E0]], %[[ZERO]]
// CHECK:           scf.for
// CHECK:             vector.load %arg0
// CHECK:             math.exp
// CHECK:             vector.store
// CHECK:             vector.reduction <add>
// CHECK:           scf.if
// CHECK:             %[[MASK:.*]] = vector.create_mask
// CHECK:             vector.maskedload %arg0{{.*}}, %[[MASK]]
// CHECK:             %[[ET:.*]] = math.exp
// CHECK:             vector.maskedstore %[[E]]{{.*}}, %[[MASK]], %[[ET]]
// CHECK:             %[[PAD:.*]] = arith.select %[[MASK]], %[[ET]], %[[NZERO]]
// CHECK:             vector.reduction <add>, %[[PAD]]
// CHECK:           memref.store %{{.*}}, %[[MS]][%[[I]]]
// CHECK-NOT:     linalg.generic
// Without fuse-producers (mips-compile --mips-precise-math: exp stays a libm call,
// dearer in vector code), the generic stays and the sum is vectorized alone.
// UNFUSED-LABEL: func.func @exp_and_sum
// UNFUSED:         linalg.generic
// UNFUSED:         math.exp %{{.*}} : f32
// UNFUSED:         linalg.fill
// UNFUSED:         scf.for
#e_id = affine_map<(i, j) -> (i, j)>
#e_row = affine_map<(i, j) -> (i)>
func.func @exp_and_sum(%xs: memref<5x19xf32>, %m: memref<5xf32>, %out: memref<5x19xf32>, %sums: memref<5xf32>) {
  %zero = arith.constant 0.0 : f32
  %ms = memref.alloc() : memref<5xf32>
  memref.copy %m, %ms : memref<5xf32> to memref<5xf32>
  %e = memref.alloc() : memref<5x19xf32>
  %x = memref.cast %xs : memref<5x19xf32> to memref<5x19xf32, strided<[?, ?], offset: ?>>
  linalg.generic {indexing_maps = [#e_id, #e_row, #e_id], iterator_types = ["parallel", "parallel"]} ins(%x, %ms : memref<5x19xf32, strided<[?, ?], offset: ?>>, memref<5xf32>) outs(%e : memref<5x19xf32>) {
  ^bb0(%a: f32, %mx: f32, %o: f32):
    %d = arith.subf %a, %mx : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  }
  linalg.fill ins(%zero : f32) outs(%ms : memref<5xf32>)
  linalg.generic {indexing_maps = [#e_id, #e_row], iterator_types = ["parallel", "reduction"]} ins(%e : memref<5x19xf32>) outs(%ms : memref<5xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %y = arith.addf %a, %acc : f32
    linalg.yield %y : f32
  }
  memref.copy %e, %out : memref<5x19xf32> to memref<5x19xf32>
  memref.copy %ms, %sums : memref<5xf32> to memref<5xf32>
  return
}

// -----

// Not fused (the producer stays a loop nest, the sum is vectorized alone): an
// input read transposed; outputs that are not fresh buffers (a function's
// arguments may alias its inputs); an integer division in the body (masked-off
// lanes could trap).
// CHECK-LABEL: func.func @not_fused
// CHECK:         linalg.generic
// CHECK:         scf.for
// CHECK:         linalg.generic
// CHECK:         scf.for
// CHECK:         linalg.generic
// CHECK:         arith.divsi
// CHECK:         scf.for
#n_id = affine_map<(i, j) -> (i, j)>
#n_t = affine_map<(i, j) -> (j, i)>
#n_row = affine_map<(i, j) -> (i)>
func.func @not_fused(%x: memref<4x4xf32>, %e_arg: memref<4x4xf32>, %s_arg: memref<4xf32>) {
  %e = memref.alloc() : memref<4x4xf32>
  %s = memref.alloc() : memref<4xf32>
  linalg.generic {indexing_maps = [#n_t, #n_id], iterator_types = ["parallel", "parallel"]} ins(%x : memref<4x4xf32>) outs(%e : memref<4x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %y = math.exp %a : f32
    linalg.yield %y : f32
  }
  linalg.generic {indexing_maps = [#n_id, #n_row], iterator_types = ["parallel", "reduction"]} ins(%e : memref<4x4xf32>) outs(%s : memref<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %y = arith.addf %a, %acc : f32
    linalg.yield %y : f32
  }
  linalg.generic {indexing_maps = [#n_id, #n_id], iterator_types = ["parallel", "parallel"]} ins(%x : memref<4x4xf32>) outs(%e_arg : memref<4x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %y = math.exp %a : f32
    linalg.yield %y : f32
  }
  linalg.generic {indexing_maps = [#n_id, #n_row], iterator_types = ["parallel", "reduction"]} ins(%e_arg : memref<4x4xf32>) outs(%s_arg : memref<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %y = arith.addf %a, %acc : f32
    linalg.yield %y : f32
  }
  linalg.generic {indexing_maps = [#n_id, #n_id], iterator_types = ["parallel", "parallel"]} ins(%x : memref<4x4xf32>) outs(%e : memref<4x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %i = arith.fptosi %a : f32 to i32
    %c7 = arith.constant 7 : i32
    %q = arith.divsi %c7, %i : i32
    %y = arith.sitofp %q : i32 to f32
    linalg.yield %y : f32
  }
  linalg.generic {indexing_maps = [#n_id, #n_row], iterator_types = ["parallel", "reduction"]} ins(%e : memref<4x4xf32>) outs(%s : memref<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %y = arith.addf %a, %acc : f32
    linalg.yield %y : f32
  }
  return
}
