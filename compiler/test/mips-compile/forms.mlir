// RUN: mips-compile %s --static-embedding --emit=mlir --mips-specialize-dense-arguments=false -o - | FileCheck %s
// RUN: mips-compile %s --static-embedding --emit=mlir --mips-inline-threshold=0 --mips-specialize-dense-arguments=false -o - | FileCheck %s --check-prefix=NEVER
// RUN: not mips-compile %s --mips-inline-threshold=-1 -o /dev/null 2>&1 | FileCheck %s --check-prefix=NEGATIVE

// Every matmul form a model contains reaches libmips: one call site each (a
// batch is a loop around one), and small static ones run inline.

// NEGATIVE: mips-compile: error: --mips-inline-threshold=-1 is negative; give 0 (always call libmips) or more

// CHECK-LABEL: llvm.func @tosa_attention(
// CHECK:         llvm.call @mips_matmul_f32(
// CHECK-NOT:     llvm.call @mips_matmul
// CHECK-LABEL: llvm.func @_mlir_ciface_tosa_attention(
func.func @tosa_attention(%q: tensor<2x16x32xf32>, %k: tensor<2x32x24xf32>) -> tensor<2x16x24xf32> {
  %z = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %r = tosa.matmul %q, %k, %z, %z : (tensor<2x16x32xf32>, tensor<2x32x24xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x16x24xf32>
  return %r : tensor<2x16x24xf32>
}

// CHECK-LABEL: llvm.func @tosa_quantized(
// CHECK:         llvm.call @mips_matmul_i8i32(
// CHECK-NOT:     llvm.call @mips_matmul
// CHECK-LABEL: llvm.func @_mlir_ciface_tosa_quantized(
func.func @tosa_quantized(%a: tensor<1x16x64xi8>, %b: tensor<1x64x8xi8>) -> tensor<1x16x8xi32> {
  %za = "tosa.const"() <{values = dense<3> : tensor<1xi8>}> : () -> tensor<1xi8>
  %zb = "tosa.const"() <{values = dense<-5> : tensor<1xi8>}> : () -> tensor<1xi8>
  %r = tosa.matmul %a, %b, %za, %zb : (tensor<1x16x64xi8>, tensor<1x64x8xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x16x8xi32>
  return %r : tensor<1x16x8xi32>
}

// CHECK-LABEL: llvm.func @generic_transposed(
// CHECK:         llvm.call @mips_matmul_i8i32(
// CHECK-NOT:     llvm.call @mips_matmul
// CHECK-LABEL: llvm.func @_mlir_ciface_generic_transposed(
#a = affine_map<(m, n, k) -> (m, k)>
#bt = affine_map<(m, n, k) -> (n, k)>
#c = affine_map<(m, n, k) -> (m, n)>
func.func @generic_transposed(%x: tensor<32x64xi8>, %y: tensor<48x64xi8>, %z: tensor<32x48xi32>) -> tensor<32x48xi32> {
  %r = linalg.generic {indexing_maps = [#a, #bt, #c], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%x, %y : tensor<32x64xi8>, tensor<48x64xi8>) outs(%z : tensor<32x48xi32>) {
  ^bb0(%p: i8, %q: i8, %acc: i32):
    %pe = arith.extsi %p : i8 to i32
    %qe = arith.extsi %q : i8 to i32
    %m = arith.muli %pe, %qe : i32
    %s = arith.addi %acc, %m : i32
    linalg.yield %s : i32
  } -> tensor<32x48xi32>
  return %r : tensor<32x48xi32>
}

// CHECK-LABEL: llvm.func @matvec(
// CHECK:         llvm.call @mips_matmul_f32(
// CHECK-NOT:     llvm.call @mips_matmul
// CHECK-LABEL: llvm.func @_mlir_ciface_matvec(
func.func @matvec(%a: tensor<?x?xf32>, %x: tensor<?xf32>, %y: tensor<?xf32>) -> tensor<?xf32> {
  %r = linalg.matvec ins(%a, %x : tensor<?x?xf32>, tensor<?xf32>) outs(%y : tensor<?xf32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}

// A function on buffers that frees its own memory keeps doing so.
// CHECK-LABEL: llvm.func @memref_frees_its_own(
// CHECK:         llvm.call @malloc(
// CHECK:         llvm.call @mips_matmul_f32(
// CHECK:         llvm.call @free(
// CHECK-NOT:     llvm.call @mips_matmul
// CHECK-LABEL: llvm.func @_mlir_ciface_memref_frees_its_own(
func.func @memref_frees_its_own(%a: memref<32x64xf32>, %b: memref<64x48xf32>, %out: memref<32x48xf32>) {
  %t = memref.alloc() : memref<32x48xf32>
  linalg.matmul ins(%a, %b : memref<32x64xf32>, memref<64x48xf32>) outs(%t : memref<32x48xf32>)
  memref.copy %t, %out : memref<32x48xf32> to memref<32x48xf32>
  memref.dealloc %t : memref<32x48xf32>
  return
}

// 4x4x4 runs inline: no call. --mips-inline-threshold=0 calls libmips.
// CHECK-LABEL: llvm.func @tiny(
// CHECK-NOT:     llvm.call @mips_matmul
// CHECK:         llvm.intr.fmuladd
// CHECK-NOT:     llvm.call @mips_matmul
// CHECK-LABEL: llvm.func @_mlir_ciface_tiny(
// NEVER-LABEL: llvm.func @tiny(
// NEVER:         llvm.call @mips_matmul_f32(
func.func @tiny(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>, %c: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<4x4xf32>, tensor<4x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}

// vector and math ops around the matmul lower too; vector.print calls the
// runtime's printers.
// CHECK-LABEL: llvm.func @with_vector_print(
// CHECK:         llvm.call @mips_matmul_f32(
// CHECK:         llvm.call @printF32(
// CHECK-LABEL: llvm.func @_mlir_ciface_with_vector_print(
func.func @with_vector_print(%a: tensor<32x64xf32>, %b: tensor<64x48xf32>, %c: tensor<32x48xf32>) -> tensor<32x48xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<32x64xf32>, tensor<64x48xf32>) outs(%c : tensor<32x48xf32>) -> tensor<32x48xf32>
  %c0 = arith.constant 0 : index
  %f0 = arith.constant 0.0 : f32
  %v = vector.transfer_read %r[%c0, %c0], %f0 : tensor<32x48xf32>, vector<4xf32>
  vector.print %v : vector<4xf32>
  %t = math.tanh %f0 : f32
  vector.print %t : f32
  return %r : tensor<32x48xf32>
}
