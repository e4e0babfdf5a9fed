// RUN: mips-opt %s -split-input-file --mips-inline-small-matmuls | FileCheck %s --check-prefixes=CHECK,DEFAULT
// RUN: mips-opt %s -split-input-file --mips-inline-small-matmuls=threshold=0 | FileCheck %s --check-prefixes=CHECK,NEVER
// RUN: mips-opt %s -split-input-file --mips-inline-small-matmuls=threshold=100000 | FileCheck %s --check-prefixes=CHECK,ALWAYS

// The choice is a mark on the op: convert-mips-to-libmips emits inline code for
// it instead of a call. 4x4x4 = 64 multiply-adds and 4x5x6 are inline by
// default, flags kept; threshold=0 keeps every call.
// CHECK-LABEL:   func.func @tiny
// DEFAULT:         mips.matmul inlined ins(%{{.*}}, %{{.*}} : tensor<4x4xf32>, tensor<4x4xf32>)
// DEFAULT:         mips.matmul transpose_lhs transpose_rhs overwrite inlined ins(%{{.*}}, %{{.*}} : tensor<6x4xi8>, tensor<5x6xi8>)
// DEFAULT:         mips.matmul inlined ins(%{{.*}}, %{{.*}} : memref<4x4xf32>, memref<4x4xf32>)
// NEVER-NOT:       inlined
// ALWAYS-COUNT-3:  inlined
func.func @tiny(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>, %c: tensor<4x4xf32>,
                %at: tensor<6x4xi8>, %bt: tensor<5x6xi8>, %c8: tensor<4x5xi32>,
                %ma: memref<4x4xf32>, %mb: memref<4x4xf32>, %mc: memref<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x5xi32>) {
  %r = mips.matmul ins(%a, %b : tensor<4x4xf32>, tensor<4x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  %s = mips.matmul transpose_lhs transpose_rhs overwrite ins(%at, %bt : tensor<6x4xi8>, tensor<5x6xi8>) outs(%c8 : tensor<4x5xi32>) -> tensor<4x5xi32>
  mips.matmul ins(%ma, %mb : memref<4x4xf32>, memref<4x4xf32>) outs(%mc : memref<4x4xf32>)
  return %r, %s : tensor<4x4xf32>, tensor<4x5xi32>
}

// -----

// Above the threshold (16x16x16 = 4096 > 512) or dynamic: libmips. A long
// reduction (K = 33 > 32) calls libmips whatever the threshold.
// CHECK-LABEL:   func.func @not_inlined
// DEFAULT-NOT:     inlined
// ALWAYS:          mips.matmul inlined ins(%{{.*}}, %{{.*}} : tensor<16x16xf32>, tensor<16x16xf32>)
// ALWAYS-NOT:      inlined
func.func @not_inlined(%a: tensor<16x16xf32>, %b: tensor<16x16xf32>, %c: tensor<16x16xf32>,
                       %da: tensor<?x4xf32>, %db: tensor<4x4xf32>, %dc: tensor<?x4xf32>,
                       %la: tensor<2x33xf32>, %lb: tensor<33x2xf32>, %lc: tensor<2x2xf32>)
    -> (tensor<16x16xf32>, tensor<?x4xf32>, tensor<2x2xf32>) {
  %r = mips.matmul ins(%a, %b : tensor<16x16xf32>, tensor<16x16xf32>) outs(%c : tensor<16x16xf32>) -> tensor<16x16xf32>
  %d = mips.matmul ins(%da, %db : tensor<?x4xf32>, tensor<4x4xf32>) outs(%dc : tensor<?x4xf32>) -> tensor<?x4xf32>
  %l = mips.matmul ins(%la, %lb : tensor<2x33xf32>, tensor<33x2xf32>) outs(%lc : tensor<2x2xf32>) -> tensor<2x2xf32>
  return %r, %d, %l : tensor<16x16xf32>, tensor<?x4xf32>, tensor<2x2xf32>
}

// -----

// Empty products (no vector of zero elements exists) and extents whose product
// overflows int64 call libmips at any threshold.
// CHECK-LABEL:   func.func @empty_or_huge
// CHECK-NOT:       inlined
func.func @empty_or_huge(%a: tensor<4x3xf32>, %b: tensor<3x0xf32>, %c: tensor<4x0xf32>,
                         %ka: tensor<4x0xf32>, %kb: tensor<0x4xf32>, %kc: tensor<4x4xf32>,
                         %ha: tensor<4294967296x1xf32>, %hb: tensor<1x4294967296xf32>,
                         %hc: tensor<4294967296x4294967296xf32>)
    -> (tensor<4x0xf32>, tensor<4x4xf32>, tensor<4294967296x4294967296xf32>) {
  %r = mips.matmul ins(%a, %b : tensor<4x3xf32>, tensor<3x0xf32>) outs(%c : tensor<4x0xf32>) -> tensor<4x0xf32>
  %k = mips.matmul overwrite ins(%ka, %kb : tensor<4x0xf32>, tensor<0x4xf32>) outs(%kc : tensor<4x4xf32>) -> tensor<4x4xf32>
  %h = mips.matmul ins(%ha, %hb : tensor<4294967296x1xf32>, tensor<1x4294967296xf32>) outs(%hc : tensor<4294967296x4294967296xf32>) -> tensor<4294967296x4294967296xf32>
  return %r, %k, %h : tensor<4x0xf32>, tensor<4x4xf32>, tensor<4294967296x4294967296xf32>
}
