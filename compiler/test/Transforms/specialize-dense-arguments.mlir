// RUN: mips-opt %s --mips-specialize-dense-arguments --canonicalize --split-input-file | FileCheck %s

// A function with a loop over its arguments picks, at run time, a copy whose
// arguments have the strides of a dense row-major array in their types (the
// casts fold into the loop), or the unchanged body for any other view.
// CHECK-LABEL: func.func @relu(
// CHECK-SAME:      %[[X:.*]]: memref<4x8xf32, strided<[?, ?], offset: ?>>, %[[Y:.*]]: memref<4x8xf32, strided<[?, ?], offset: ?>>)
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C8:.*]] = arith.constant 8 : index
// CHECK:         %{{.*}}, %{{.*}}, %{{.*}}:2, %[[XS:.*]]:2 = memref.extract_strided_metadata %[[X]]
// CHECK:         arith.cmpi eq, %[[XS]]#1, %[[C1]]
// CHECK:         arith.cmpi eq, %[[XS]]#0, %[[C8]]
// CHECK:         memref.extract_strided_metadata %[[Y]]
// CHECK:         scf.if
// CHECK:           %[[DX:.*]] = memref.cast %[[X]] : {{.*}} to memref<4x8xf32, strided<[8, 1], offset: ?>>
// CHECK:           %[[DY:.*]] = memref.cast %[[Y]] : {{.*}} to memref<4x8xf32, strided<[8, 1], offset: ?>>
// CHECK:           call @relu.mips_dense(%[[DX]], %[[DY]])
// CHECK:         } else {
// CHECK:           call @relu.mips_strided(%[[X]], %[[Y]])
// CHECK-LABEL: func.func private @relu.mips_dense(
// CHECK-SAME:      memref<4x8xf32, strided<[8, 1], offset: ?>>
// CHECK:         linalg.generic
// CHECK-SAME:      ins(%{{.*}} : memref<4x8xf32, strided<[8, 1], offset: ?>>) outs(%{{.*}} : memref<4x8xf32, strided<[8, 1], offset: ?>>)
// CHECK-LABEL: func.func private @relu.mips_strided(
// CHECK:         linalg.generic
// CHECK-SAME:      ins(%{{.*}} : memref<4x8xf32, strided<[?, ?], offset: ?>>)
#id = affine_map<(i, j) -> (i, j)>
func.func @relu(%x: memref<4x8xf32, strided<[?, ?], offset: ?>>, %y: memref<4x8xf32, strided<[?, ?], offset: ?>>) {
  %zero = arith.constant 0.0 : f32
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : memref<4x8xf32, strided<[?, ?], offset: ?>>) outs(%y : memref<4x8xf32, strided<[?, ?], offset: ?>>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %a, %zero : f32
    linalg.yield %m : f32
  }
  return
}

// -----

// Dynamic sizes: the inner stride is 1 and the outer one the row length, checked
// against the actual size; a view of an argument (a subview) counts as a read.
// CHECK-LABEL: func.func @copy_rows(
// CHECK:         %{{.*}}, %{{.*}}, %[[SIZES:.*]]:2, %[[STRIDES:.*]]:2 = memref.extract_strided_metadata
// CHECK:         arith.cmpi eq, %[[STRIDES]]#0, %[[SIZES]]#1
// CHECK:         memref.cast %{{.*}} to memref<?x?xf32, strided<[?, 1], offset: ?>>
// CHECK-LABEL: func.func private @copy_rows.mips_dense(
// CHECK-LABEL: func.func private @copy_rows.mips_strided(
func.func @copy_rows(%x: memref<?x?xf32, strided<[?, ?], offset: ?>>, %out: memref<2x2xf32>) {
  %c0 = arith.constant 0 : index
  %v = memref.subview %x[0, 0] [2, 2] [1, 1] : memref<?x?xf32, strided<[?, ?], offset: ?>> to memref<2x2xf32, strided<[?, ?], offset: ?>>
  memref.copy %v, %out : memref<2x2xf32, strided<[?, ?], offset: ?>> to memref<2x2xf32>
  return
}

// -----

// Arguments that only reach a call (libmips takes any strides) or loops over
// the function's own buffers: no copy.
// CHECK-LABEL: func.func @no_loops_over_arguments(
// CHECK-NOT:     scf.if
// CHECK-NOT:     mips_dense
func.func private @consume(memref<4xf32, strided<[?], offset: ?>>)
func.func @no_loops_over_arguments(%x: memref<4xf32, strided<[?], offset: ?>>) -> memref<4xf32> {
  %zero = arith.constant 0.0 : f32
  %own = memref.alloc() : memref<4xf32>
  linalg.fill ins(%zero : f32) outs(%own : memref<4xf32>)
  func.call @consume(%x) : (memref<4xf32, strided<[?], offset: ?>>) -> ()
  return %own : memref<4xf32>
}
