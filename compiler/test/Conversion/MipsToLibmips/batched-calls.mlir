// RUN: mips-opt %s -split-input-file --convert-mips-to-libmips="batched-calls=true" --canonicalize | FileCheck %s
// RUN: mips-opt %s -split-input-file --convert-mips-to-libmips --canonicalize | FileCheck %s --check-prefix=LOOP

// With batched-calls, a batch is one mips_matmul_batch_f32 call: (batch, m, n, k),
// then each matrix as (base, offset, batch stride, stride0, stride1). The module
// needs libmips ABI 1.2.
// CHECK:       module attributes {mips.libmips_abi_minor = 2 : i32}
// CHECK-LABEL: func.func @heads
// CHECK-DAG:     %[[BATCH:.*]] = arith.constant 4 : i64
// CHECK-DAG:     %[[M:.*]] = arith.constant 64 : i64
// CHECK-DAG:     %[[K:.*]] = arith.constant 32 : i64
// CHECK-DAG:     %[[ABATCH:.*]] = arith.constant 2048 : i64
// CHECK-DAG:     %[[CBATCH:.*]] = arith.constant 4096 : i64
// CHECK-DAG:     %[[ROW:.*]] = arith.constant 1 : i64
// CHECK-DAG:     %[[ACCUMULATE:.*]] = arith.constant 1 : i32
// Q * K^T: B's strides swap (1, 32).
// CHECK:         %[[S:.*]] = call @mips_matmul_batch_f32(%[[BATCH]], %[[M]], %[[M]], %[[K]], %{{[^,]*}}, %{{[^,]*}}, %[[ABATCH]], %[[K]], %[[ROW]], %{{[^,]*}}, %{{[^,]*}}, %[[ABATCH]], %[[ROW]], %[[K]], %{{[^,]*}}, %{{[^,]*}}, %[[CBATCH]], %[[M]], %[[ROW]], %[[ACCUMULATE]])
// CHECK:         scf.if
// CHECK:           func.call @__mips_rt_v1_2_common_call_failed(
// CHECK-NOT:     call @mips_matmul_f32
// Without it, one call per entry in a loop, and ABI 1.0.
// LOOP-NOT:      mips.libmips_abi_minor
// LOOP-LABEL:    func.func @heads
// LOOP:            scf.for
// LOOP:              memref.subview
// LOOP:              call @mips_matmul_f32(
// LOOP-NOT:      mips_matmul_batch
func.func @heads(%q: memref<4x64x32xf32>, %k: memref<4x64x32xf32>, %s: memref<4x64x64xf32>) {
  mips.batch_matmul transpose_rhs ins(%q, %k : memref<4x64x32xf32>, memref<4x64x32xf32>) outs(%s : memref<4x64x64xf32>)
  return
}

// -----

// A shared operand has batch stride 0; int8 calls the i8i32 form; overwrite
// clears the accumulate flag.
// CHECK-LABEL: func.func @shared_weights
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0 : i64
// CHECK-DAG:     %[[OVERWRITE:.*]] = arith.constant 0 : i32
// CHECK:         call @mips_matmul_batch_i8i32(%{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %[[ZERO]], %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %[[OVERWRITE]])
// LOOP-LABEL: func.func @shared_weights
// LOOP:         scf.for
// LOOP-COUNT-2:   memref.subview
// LOOP:           call @mips_matmul_i8i32(
func.func @shared_weights(%a: memref<3x8x16xi8>, %w: memref<16x5xi8>, %c: memref<3x8x5xi32>) {
  mips.batch_matmul overwrite ins(%a, %w : memref<3x8x16xi8>, memref<16x5xi8>) outs(%c : memref<3x8x5xi32>)
  return
}

// -----

// Dynamic shapes: the matrix extents and the batch extents are checked before the
// call; a shared operand's batch is reported as -1.
// CHECK-LABEL: func.func @dynamic
// CHECK:         %[[SHARED:.*]] = arith.constant -1 : i64
// CHECK:         %[[A:.*]], %{{.*}}, %[[ASIZES:.*]]:3, %{{.*}} = memref.extract_strided_metadata %arg0
// CHECK:         %[[C:.*]], %{{.*}}, %[[CSIZES:.*]]:3, %{{.*}} = memref.extract_strided_metadata %arg2
// CHECK:         scf.if
// CHECK:           func.call @__mips_rt_v1_2_common_bad_shapes(
// CHECK:         %[[MISFIT:.*]] = arith.cmpi ne, %[[ASIZES]]#0, %[[CSIZES]]#0
// CHECK:         scf.if %[[MISFIT]]
// CHECK:           func.call @__mips_rt_v1_2_common_bad_batch(%{{.*}}, %[[SHARED]], %{{.*}})
// CHECK:         call @mips_matmul_batch_f32(
func.func @dynamic(%a: memref<?x?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?x?xf32>) {
  mips.batch_matmul ins(%a, %b : memref<?x?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?x?xf32>)
  return
}

// -----

// A static empty batch entry: K = 0 with overwrite zeroes C in the loop form.
// LOOP-LABEL: func.func @empty_k
// LOOP:         linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : memref<2x3x4xf32>)
// LOOP-NOT:     call @mips_matmul
func.func @empty_k(%a: memref<2x3x0xf32>, %b: memref<2x0x4xf32>, %c: memref<2x3x4xf32>) {
  mips.batch_matmul overwrite ins(%a, %b : memref<2x3x0xf32>, memref<2x0x4xf32>) outs(%c : memref<2x3x4xf32>)
  return
}

// -----

// The loop form checks dynamic batch extents too, before the loop: a shorter
// operand would otherwise be read past its end. The 1.0 runtime reports it.
// LOOP-LABEL: func.func @dynamic_loop
// LOOP:         %[[MISFIT:.*]] = arith.ori
// LOOP:         scf.if %[[MISFIT]]
// LOOP:           func.call @__mips_rt_v1_0_common_bad_batch(
// LOOP:         scf.for
// LOOP:           call @mips_matmul_f32(
func.func @dynamic_loop(%a: memref<?x4x8xf32>, %b: memref<?x8x16xf32>, %c: memref<?x4x16xf32>) {
  mips.batch_matmul ins(%a, %b : memref<?x4x8xf32>, memref<?x8x16xf32>) outs(%c : memref<?x4x16xf32>)
  return
}

// -----

// A unit batch whose lhs batch is dynamic: one call, after the batch check (a batch of
// 0 would otherwise be read as one entry).
// LOOP-LABEL: func.func @unit_batch_dynamic_lhs
// LOOP-NOT:     scf.for
// LOOP:         func.call @__mips_rt_v1_0_common_bad_batch(
// LOOP:         call @mips_matmul_f32(
func.func @unit_batch_dynamic_lhs(%a: memref<?x4x8xf32>, %b: memref<1x8x5xf32>, %c: memref<1x4x5xf32>) {
  mips.batch_matmul ins(%a, %b : memref<?x4x8xf32>, memref<1x8x5xf32>) outs(%c : memref<1x4x5xf32>)
  return
}

// -----

// The whole batch's matrix extents are checked before the loop too: with a static 0
// extent no entry runs (and checks) at all.
// LOOP-LABEL: func.func @dynamic_k_empty_m
// LOOP:         func.call @__mips_rt_v1_0_common_bad_shapes(
// LOOP-NOT:     call @mips_matmul
func.func @dynamic_k_empty_m(%a: memref<2x0x?xf32>, %b: memref<2x6x5xf32>, %c: memref<2x0x5xf32>) {
  mips.batch_matmul ins(%a, %b : memref<2x0x?xf32>, memref<2x6x5xf32>) outs(%c : memref<2x0x5xf32>)
  return
}
