// RUN: mips-opt %s -split-input-file --convert-mips-to-libmips="pack-constant-weights=true" | FileCheck %s
// RUN: mips-opt %s -split-input-file --convert-mips-to-libmips | FileCheck %s --check-prefix=PLAIN

// A B that is a constant global is packed once: the runtime's packed_b_f32 returns the
// handle it keeps in a slot global (one per weight matrix and orientation, shared by
// the calls that use it), and the call is the packed one, (m, A, handle, C, flags).
// The module needs libmips ABI 1.2.
// CHECK:       module attributes {mips.libmips_abi_minor = 2 : i32}
// CHECK-DAG:   memref.global "private" @__mips_packed_weights : memref<1xi64> = dense<0>
// CHECK-DAG:   memref.global "private" @__mips_packed_weights_t : memref<1xi64> = dense<0>
// CHECK-DAG:   func.func private @__mips_rt_v1_2_common_packed_b_f32(memref<i64>, i64, i64, memref<f32>, i64, i64, i64) -> !llvm.ptr attributes {llvm.bareptr}
// CHECK-DAG:   func.func private @mips_matmul_packed_f32(i64, memref<f32>, i64, i64, i64, !llvm.ptr, memref<f32>, i64, i64, i64, i32) -> i32 attributes {llvm.bareptr}
// CHECK-LABEL: func.func @by_weights
// CHECK:         %[[W:.*]] = memref.get_global @weights
// CHECK:         %[[WBASE:.*]], %[[WOFF:.*]], %{{.*}}:2, %[[WSTR:.*]]:2 = memref.extract_strided_metadata %[[W]]
// CHECK:         %[[SLOT:.*]] = memref.get_global @__mips_packed_weights : memref<1xi64>
// CHECK:         %[[SLOTBASE:.*]], %{{.*}}, %{{.*}}, %{{.*}} = memref.extract_strided_metadata %[[SLOT]]
// CHECK:         %[[HANDLE:.*]] = call @__mips_rt_v1_2_common_packed_b_f32(%[[SLOTBASE]], %{{.*}}, %{{.*}}, %[[WBASE]],
// CHECK:         call @mips_matmul_packed_f32(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[HANDLE]],
// CHECK:         memref.get_global @__mips_packed_weights : memref<1xi64>
// CHECK:         call @mips_matmul_packed_f32(
// CHECK:         memref.get_global @__mips_packed_weights_t : memref<1xi64>
// CHECK:         call @mips_matmul_packed_f32(
// A B that is not constant is passed as before.
// CHECK:         call @mips_matmul_f32(
// Without the option, every call is the plain one, and ABI 1.0 suffices.
// PLAIN-NOT:     mips.libmips_abi_minor
// PLAIN-NOT:     __mips_packed
// PLAIN-NOT:     mips_matmul_packed
memref.global "private" constant @weights : memref<8x8xf32> = dense<1.0>
memref.global "private" @mutable : memref<8x8xf32> = dense<1.0>
func.func @by_weights(%a: memref<1x8xf32>, %c: memref<1x8xf32>) {
  %w = memref.get_global @weights : memref<8x8xf32>
  mips.matmul overwrite ins(%a, %w : memref<1x8xf32>, memref<8x8xf32>) outs(%c : memref<1x8xf32>)
  mips.matmul ins(%a, %w : memref<1x8xf32>, memref<8x8xf32>) outs(%c : memref<1x8xf32>)
  mips.matmul transpose_rhs ins(%a, %w : memref<1x8xf32>, memref<8x8xf32>) outs(%c : memref<1x8xf32>)
  %m = memref.get_global @mutable : memref<8x8xf32>
  mips.matmul ins(%a, %m : memref<1x8xf32>, memref<8x8xf32>) outs(%c : memref<1x8xf32>)
  return
}
