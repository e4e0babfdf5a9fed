// RUN: mips-opt %s -split-input-file --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --convert-mips-to-libmips | FileCheck %s

// Each operand crosses as (base, offset, stride0, stride1); a transposed operand
// swaps its strides; without `overwrite` the call accumulates (flags = 1).
// CHECK-DAG:   func.func private @__mips_rt_v1_0_common_call_failed(i32, i32, !llvm.ptr)
// CHECK-DAG:   func.func private @mips_status_string(i32) -> !llvm.ptr
// CHECK-DAG:   func.func private @mips_matmul_f32(i64, i64, i64, memref<f32>, i64, i64, i64, memref<f32>, i64, i64, i64, memref<f32>, i64, i64, i64, i32) -> i32 attributes {llvm.bareptr}
// CHECK-LABEL: func.func @transposed_rhs_accumulate
// CHECK-SAME:    %[[A:.*]]: memref<?x?xf32>, %[[BT:.*]]: memref<?x?xf32>, %[[C:.*]]: memref<?x?xf32>
// CHECK:         %[[ABASE:.*]], %[[AOFF:.*]], %[[ASIZE:.*]]:2, %[[ASTR:.*]]:2 = memref.extract_strided_metadata %[[A]]
// CHECK-DAG:     %[[AOFF64:.*]] = arith.index_cast %[[AOFF]] : index to i64
// CHECK-DAG:     %[[AS0:.*]] = arith.index_cast %[[ASTR]]#0 : index to i64
// CHECK-DAG:     %[[AS1:.*]] = arith.index_cast %[[ASTR]]#1 : index to i64
// CHECK:         %[[BBASE:.*]], %[[BOFF:.*]], %[[BSIZE:.*]]:2, %[[BSTR:.*]]:2 = memref.extract_strided_metadata %[[BT]]
// CHECK-NOT:     mips.matmul
// CHECK-DAG:     %[[BOFF64:.*]] = arith.index_cast %[[BOFF]] : index to i64
// CHECK-DAG:     %[[BS0:.*]] = arith.index_cast %[[BSTR]]#1 : index to i64
// CHECK-DAG:     %[[BS1:.*]] = arith.index_cast %[[BSTR]]#0 : index to i64
// CHECK:         %[[CBASE:.*]], %[[COFF:.*]], %[[CSIZE:.*]]:2, %[[CSTR:.*]]:2 = memref.extract_strided_metadata %[[C]]
// CHECK-DAG:     %[[COFF64:.*]] = arith.index_cast %[[COFF]] : index to i64
// CHECK-DAG:     %[[CS0:.*]] = arith.index_cast %[[CSTR]]#0 : index to i64
// CHECK-DAG:     %[[CS1:.*]] = arith.index_cast %[[CSTR]]#1 : index to i64
// CHECK:         scf.if
// CHECK:           func.call @__mips_rt_v1_0_common_bad_shapes(
// CHECK-NEXT:    }
// CHECK-DAG:     %[[M:.*]] = arith.index_cast %[[ASIZE]]#0 : index to i64
// CHECK-DAG:     %[[K:.*]] = arith.index_cast %[[ASIZE]]#1 : index to i64
// CHECK-DAG:     %[[N:.*]] = arith.index_cast %[[BSIZE]]#0 : index to i64
// CHECK-DAG:     %[[ACC:.*]] = arith.constant 1 : i32
// CHECK:         %[[STATUS:.*]] = call @mips_matmul_f32(%[[M]], %[[N]], %[[K]], %[[ABASE]], %[[AOFF64]], %[[AS0]], %[[AS1]], %[[BBASE]], %[[BOFF64]], %[[BS0]], %[[BS1]], %[[CBASE]], %[[COFF64]], %[[CS0]], %[[CS1]], %[[ACC]])
// CHECK:         %[[FAILED:.*]] = arith.cmpi ne, %[[STATUS]], %{{.*}} : i32
// CHECK:         scf.if %[[FAILED]] {
// CHECK:           %[[SLOT:.*]] = arith.constant 4 : i32
// CHECK:           %[[TEXT:.*]] = func.call @mips_status_string(%[[STATUS]])
// CHECK:           func.call @__mips_rt_v1_0_common_call_failed(%[[SLOT]], %[[STATUS]], %[[TEXT]])
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
// copy of the init, never a write into the buffer that is read later.
// CHECK-LABEL: func.func @init_still_live
// CHECK-SAME:    %{{.*}}: memref<2x2xf32>, %{{.*}}: memref<2x2xf32>, %[[C:.*]]: memref<2x2xf32>
// CHECK:         %[[COPY:.*]] = memref.alloc
// CHECK:         memref.copy %[[C]], %[[COPY]]
// CHECK:         memref.extract_strided_metadata %[[COPY]]
// CHECK:         call @mips_matmul_f32
// CHECK:         return %[[COPY]], %[[C]]
func.func @init_still_live(%a: tensor<2x2xf32>, %b: tensor<2x2xf32>, %c: tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<2x2xf32>) {
  %r = mips.matmul ins(%a, %b : tensor<2x2xf32>, tensor<2x2xf32>) outs(%c : tensor<2x2xf32>) -> tensor<2x2xf32>
  return %r, %c : tensor<2x2xf32>, tensor<2x2xf32>
}

// -----

// `overwrite` never reads the init: a read-only init needs a new buffer but no
// copy of its contents.
// CHECK-LABEL: func.func @overwrite_read_only_init
// CHECK:         %[[ALLOC:.*]] = memref.alloc() {{.*}}: memref<3x7xi32>
// CHECK-NOT:     memref.copy
// CHECK:         call @mips_matmul_i8i32
// CHECK:         return %[[ALLOC]]
func.func @overwrite_read_only_init(%a: tensor<3x5xi8>, %b: tensor<5x7xi8>, %c: tensor<3x7xi32> {bufferization.writable = false}) -> tensor<3x7xi32> {
  %r = mips.matmul overwrite ins(%a, %b : tensor<3x5xi8>, tensor<5x7xi8>) outs(%c : tensor<3x7xi32>) -> tensor<3x7xi32>
  return %r : tensor<3x7xi32>
}

// Without `overwrite` the same init must be copied.
// CHECK-LABEL: func.func @accumulate_read_only_init
// CHECK:         memref.alloc
// CHECK:         memref.copy
// CHECK:         call @mips_matmul_i8i32
func.func @accumulate_read_only_init(%a: tensor<3x5xi8>, %b: tensor<5x7xi8>, %c: tensor<3x7xi32> {bufferization.writable = false}) -> tensor<3x7xi32> {
  %r = mips.matmul ins(%a, %b : tensor<3x5xi8>, tensor<5x7xi8>) outs(%c : tensor<3x7xi32>) -> tensor<3x7xi32>
  return %r : tensor<3x7xi32>
}

// -----

// Dynamic extents are compared before the call: K of lhs and rhs, and init's
// M x N. A mismatch calls the runtime's report (which aborts) instead of letting
// libmips touch memory outside a buffer. Static shapes need no check.
// CHECK-DAG:   func.func private @__mips_rt_v1_0_common_bad_shapes(i64, i64, i64, i64, i64, i64)
// CHECK-LABEL: func.func @dynamic_shapes_checked
// CHECK-SAME:    (%[[A:[^:]+]]: memref<?x?xf32{{.*}}>, %[[B:[^:]+]]: memref<?x8xf32{{.*}}>, %[[C:[^:]+]]: memref<4x8xf32
// CHECK:         %{{.*}}, %{{.*}}, %[[AS:.*]]:2, %{{.*}}:2 = memref.extract_strided_metadata %[[A]]
// CHECK:         %{{.*}}, %{{.*}}, %[[BS:.*]]:2, %{{.*}}:2 = memref.extract_strided_metadata %[[B]]
// CHECK:         %{{.*}}, %{{.*}}, %[[CS:.*]]:2, %{{.*}}:2 = memref.extract_strided_metadata %[[C]]
// CHECK-DAG:     %[[KOK:.*]] = arith.cmpi eq, %[[AS]]#1, %[[BS]]#0 : index
// CHECK-DAG:     %[[MOK:.*]] = arith.cmpi eq, %[[CS]]#0, %[[AS]]#0 : index
// CHECK-DAG:     %[[NOK:.*]] = arith.cmpi eq, %[[CS]]#1, %[[BS]]#1 : index
// CHECK-DAG:     %[[KMOK:.*]] = arith.andi %[[KOK]], %[[MOK]]
// CHECK:         %[[FITS:.*]] = arith.andi %[[KMOK]], %[[NOK]]
// CHECK:         %[[MISFIT:.*]] = arith.xori %[[FITS]], %{{.*}}
// CHECK:         scf.if %[[MISFIT]]
// CHECK:           func.call @__mips_rt_v1_0_common_bad_shapes(
// CHECK:         call @mips_matmul_f32
// CHECK-LABEL: func.func @static_shapes_unchecked
// CHECK-NOT:     bad_shapes
// CHECK:         call @mips_matmul_f32
func.func @dynamic_shapes_checked(%a: tensor<?x?xf32>, %b: tensor<?x8xf32>, %c: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %r = mips.matmul ins(%a, %b : tensor<?x?xf32>, tensor<?x8xf32>) outs(%c : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
func.func @static_shapes_unchecked(%a: tensor<4x2xf32>, %b: tensor<2x8xf32>, %c: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %r = mips.matmul ins(%a, %b : tensor<4x2xf32>, tensor<2x8xf32>) outs(%c : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
