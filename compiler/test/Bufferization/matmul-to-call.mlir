// RUN: mips-opt %s -split-input-file --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" | FileCheck %s

// Each operand crosses as (base, offset, stride0, stride1); a transposed operand
// swaps its strides; without `overwrite` the call accumulates (flags = 1).
// CHECK-DAG:   func.func private @__mips_rt_call_failed(i32, i32)
// CHECK-DAG:   func.func private @mips_matmul_f32(i64, i64, i64, memref<f32>, i64, i64, i64, memref<f32>, i64, i64, i64, memref<f32>, i64, i64, i64, i32) -> i32 attributes {llvm.bareptr}
// CHECK-LABEL: func.func @transposed_rhs_accumulate
// CHECK-SAME:    %[[A:.*]]: memref<?x?xf32>, %[[BT:.*]]: memref<?x?xf32>, %[[C:.*]]: memref<?x?xf32>
// CHECK:         %[[ABASE:.*]], %[[AOFF:.*]], %[[ASIZE:.*]]:2, %[[ASTR:.*]]:2 = memref.extract_strided_metadata %[[A]]
// CHECK-DAG:     %[[AOFF64:.*]] = arith.index_cast %[[AOFF]] : index to i64
// CHECK-DAG:     %[[AS0:.*]] = arith.index_cast %[[ASTR]]#0 : index to i64
// CHECK-DAG:     %[[AS1:.*]] = arith.index_cast %[[ASTR]]#1 : index to i64
// CHECK:         %[[BBASE:.*]], %[[BOFF:.*]], %[[BSIZE:.*]]:2, %[[BSTR:.*]]:2 = memref.extract_strided_metadata %[[BT]]
// CHECK-DAG:     %[[BOFF64:.*]] = arith.index_cast %[[BOFF]] : index to i64
// CHECK-DAG:     %[[BS0:.*]] = arith.index_cast %[[BSTR]]#1 : index to i64
// CHECK-DAG:     %[[BS1:.*]] = arith.index_cast %[[BSTR]]#0 : index to i64
// CHECK:         %[[CBASE:.*]], %[[COFF:.*]], %[[CSIZE:.*]]:2, %[[CSTR:.*]]:2 = memref.extract_strided_metadata %[[C]]
// CHECK-DAG:     %[[COFF64:.*]] = arith.index_cast %[[COFF]] : index to i64
// CHECK-DAG:     %[[CS0:.*]] = arith.index_cast %[[CSTR]]#0 : index to i64
// CHECK-DAG:     %[[CS1:.*]] = arith.index_cast %[[CSTR]]#1 : index to i64
// CHECK-DAG:     %[[M:.*]] = arith.index_cast %[[ASIZE]]#0 : index to i64
// CHECK-DAG:     %[[K:.*]] = arith.index_cast %[[ASIZE]]#1 : index to i64
// CHECK-DAG:     %[[N:.*]] = arith.index_cast %[[BSIZE]]#0 : index to i64
// CHECK-DAG:     %[[ACC:.*]] = arith.constant 1 : i32
// CHECK:         %[[STATUS:.*]] = call @mips_matmul_f32(%[[M]], %[[N]], %[[K]], %[[ABASE]], %[[AOFF64]], %[[AS0]], %[[AS1]], %[[BBASE]], %[[BOFF64]], %[[BS0]], %[[BS1]], %[[CBASE]], %[[COFF64]], %[[CS0]], %[[CS1]], %[[ACC]])
// CHECK:         %[[FAILED:.*]] = arith.cmpi ne, %[[STATUS]], %{{.*}} : i32
// CHECK:         scf.if %[[FAILED]] {
// CHECK:           %[[SLOT:.*]] = arith.constant 4 : i32
// CHECK:           func.call @__mips_rt_call_failed(%[[SLOT]], %[[STATUS]])
// CHECK:         }
// CHECK-NOT:     mips.matmul
// CHECK:         return %[[C]]
func.func @transposed_rhs_accumulate(%a: tensor<?x?xf32>, %bt: tensor<?x?xf32>, %c: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %r = mips.matmul transpose_rhs ins(%a, %bt : tensor<?x?xf32>, tensor<?x?xf32>) outs(%c : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// -----

// With `overwrite` the call gets flags = 0 and a fresh result buffer, which
// libmips writes without reading (no copy, no fill).
// CHECK-LABEL: func.func @int8_overwrite
// CHECK:         %[[ALLOC:.*]] = memref.alloc() {{.*}}: memref<3x7xi32>
// CHECK-NOT:     memref.copy
// CHECK-NOT:     linalg.fill
// CHECK:         %[[CBASE:.*]], %{{.*}}, %{{.*}}:2, %{{.*}}:2 = memref.extract_strided_metadata %[[ALLOC]] : memref<3x7xi32> -> memref<i32>
// CHECK:         %[[FLAGS:.*]] = arith.constant 0 : i32
// CHECK:         call @mips_matmul_i8i32({{.*}}, %[[CBASE]], {{.*}}, %[[FLAGS]]) : (i64, i64, i64, memref<i8>, i64, i64, i64, memref<i8>, i64, i64, i64, memref<i32>, i64, i64, i64, i32) -> i32
// CHECK:         arith.constant 5 : i32
// CHECK:         return %[[ALLOC]]
func.func @int8_overwrite(%a: tensor<3x5xi8>, %b: tensor<5x7xi8>) -> tensor<3x7xi32> {
  %e = tensor.empty() : tensor<3x7xi32>
  %r = mips.matmul overwrite ins(%a, %b : tensor<3x5xi8>, tensor<5x7xi8>) outs(%e : tensor<3x7xi32>) -> tensor<3x7xi32>
  return %r : tensor<3x7xi32>
}

// -----

// Accumulating into a function argument that is still read afterwards forces a
// copy of the init, never a write into the caller's buffer.
// CHECK-LABEL: func.func @init_still_live
// CHECK-SAME:    %{{.*}}: memref<2x2xf32>, %{{.*}}: memref<2x2xf32>, %[[C:.*]]: memref<2x2xf32>
// CHECK:         %[[COPY:.*]] = memref.alloc
// CHECK:         memref.copy %[[C]], %[[COPY]]
// CHECK:         memref.extract_strided_metadata %[[COPY]]
// CHECK:         call @mips_matmul_f32
func.func @init_still_live(%a: tensor<2x2xf32>, %b: tensor<2x2xf32>, %c: tensor<2x2xf32> {bufferization.writable = false}) -> (tensor<2x2xf32>, tensor<2x2xf32>) {
  %r = mips.matmul ins(%a, %b : tensor<2x2xf32>, tensor<2x2xf32>) outs(%c : tensor<2x2xf32>) -> tensor<2x2xf32>
  return %r, %c : tensor<2x2xf32>, tensor<2x2xf32>
}

