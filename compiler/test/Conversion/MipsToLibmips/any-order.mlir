// RUN: mips-opt %s -split-input-file --convert-mips-to-libmips="any-order=true" | FileCheck %s
// RUN: mips-opt %s -split-input-file --convert-mips-to-libmips | FileCheck %s --check-prefix=ORDERED

// With any-order, f32 calls pass MIPS_MATMUL_ANY_ORDER (2; with accumulation 3), and
// the module records that its calls need libmips ABI 1.2: the runtime's names are
// those of the 1.2 runtime.
// CHECK:       module attributes {mips.libmips_abi_minor = 2 : i32}
// CHECK-DAG:   func.func private @__mips_rt_v1_2_common_call_failed(i32, i32, !llvm.ptr)
// CHECK-LABEL: func.func @f32_calls
// CHECK:         %[[OVERWRITE:.*]] = arith.constant 2 : i32
// CHECK:         call @mips_matmul_f32({{.*}}, %[[OVERWRITE]])
// CHECK:         func.call @__mips_rt_v1_2_common_call_failed(
// CHECK:         %[[ACCUMULATE:.*]] = arith.constant 3 : i32
// CHECK:         call @mips_matmul_f32({{.*}}, %[[ACCUMULATE]])
// Without it, the ascending order and ABI 1.0, as ever.
// ORDERED-NOT:   mips.libmips_abi_minor
// ORDERED-LABEL: func.func @f32_calls
// ORDERED:         %[[OVERWRITE:.*]] = arith.constant 0 : i32
// ORDERED:         call @mips_matmul_f32({{.*}}, %[[OVERWRITE]])
// ORDERED:         func.call @__mips_rt_v1_0_common_call_failed(
func.func @f32_calls(%a: memref<1x64xf32>, %b: memref<64x32xf32>, %c: memref<1x32xf32>) {
  mips.matmul overwrite ins(%a, %b : memref<1x64xf32>, memref<64x32xf32>) outs(%c : memref<1x32xf32>)
  mips.matmul ins(%a, %b : memref<1x64xf32>, memref<64x32xf32>) outs(%c : memref<1x32xf32>)
  return
}

// -----

// Integer sums do not depend on the order: no flag, and the module still needs only
// ABI 1.0.
// CHECK-NOT:   mips.libmips_abi_minor
// CHECK-LABEL: func.func @i8_call
// CHECK:         %[[FLAGS:.*]] = arith.constant 0 : i32
// CHECK:         call @mips_matmul_i8i32({{.*}}, %[[FLAGS]])
// CHECK:         func.call @__mips_rt_v1_0_common_call_failed(
func.func @i8_call(%a: memref<1x64xi8>, %b: memref<64x32xi8>, %c: memref<1x32xi32>) {
  mips.matmul overwrite ins(%a, %b : memref<1x64xi8>, memref<64x32xi8>) outs(%c : memref<1x32xi32>)
  return
}
