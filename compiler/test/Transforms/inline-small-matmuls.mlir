// RUN: mips-opt %s -split-input-file --mips-inline-small-matmuls | FileCheck %s --check-prefixes=CHECK,DEFAULT
// RUN: mips-opt %s -split-input-file --mips-inline-small-matmuls=threshold=0 | FileCheck %s --check-prefixes=CHECK,NEVER
// RUN: mips-opt %s -split-input-file --mips-inline-small-matmuls=threshold=100000 | FileCheck %s --check-prefixes=CHECK,ALWAYS
// RUN: mips-opt %s -split-input-file --mips-inline-small-matmuls=embedded-libmips=true | FileCheck %s --check-prefixes=CHECK,EMBEDDED
// RUN: mips-opt %s -split-input-file --mips-inline-small-matmuls="embedded-libmips=true scalable=true" | FileCheck %s --check-prefixes=CHECK,SCALABLE

// The choice is a mark on the op: convert-mips-to-vector emits inline code for
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

// Above the threshold (16x16x16 = 4096, counted twice for K > 8) or dynamic:
// libmips. A long reduction (K = 33 > 16) calls libmips whatever the threshold.
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

// -----

// The default rule's edges: M*N*K <= 2048 with K <= 8, <= 1024 with K <= 16;
// never one column.
// CHECK-LABEL:   func.func @edges
// DEFAULT:         mips.matmul inlined ins(%{{.*}}, %{{.*}} : tensor<16x8xf32>, tensor<8x16xf32>)
// DEFAULT-NEXT:    mips.matmul ins(%{{.*}}, %{{.*}} : tensor<16x8xf32>, tensor<8x17xf32>)
// DEFAULT-NEXT:    mips.matmul inlined ins(%{{.*}}, %{{.*}} : tensor<8x16xf32>, tensor<16x8xf32>)
// DEFAULT-NEXT:    mips.matmul ins(%{{.*}}, %{{.*}} : tensor<8x16xf32>, tensor<16x9xf32>)
// DEFAULT-NEXT:    mips.matmul ins(%{{.*}}, %{{.*}} : tensor<1x17xf32>, tensor<17x1xf32>)
// DEFAULT-NEXT:    mips.matmul ins(%{{.*}}, %{{.*}} : tensor<4x4xf32>, tensor<4x1xf32>)
// ALWAYS-COUNT-4:  mips.matmul inlined
// ALWAYS-NEXT:     mips.matmul ins
// ALWAYS-NEXT:     mips.matmul ins
func.func @edges(%a: tensor<16x8xf32>, %b: tensor<8x16xf32>, %c: tensor<16x16xf32>,
                 %b17: tensor<8x17xf32>, %c17: tensor<16x17xf32>,
                 %a16: tensor<8x16xf32>, %b16: tensor<16x8xf32>, %c16: tensor<8x8xf32>,
                 %b9: tensor<16x9xf32>, %c9: tensor<8x9xf32>,
                 %a1: tensor<1x17xf32>, %b1: tensor<17x1xf32>, %c1: tensor<1x1xf32>,
                 %a4: tensor<4x4xf32>, %x4: tensor<4x1xf32>, %y4: tensor<4x1xf32>)
    -> (tensor<16x16xf32>, tensor<16x17xf32>, tensor<8x8xf32>, tensor<8x9xf32>, tensor<1x1xf32>, tensor<4x1xf32>) {
  %r0 = mips.matmul ins(%a, %b : tensor<16x8xf32>, tensor<8x16xf32>) outs(%c : tensor<16x16xf32>) -> tensor<16x16xf32>
  %r1 = mips.matmul ins(%a, %b17 : tensor<16x8xf32>, tensor<8x17xf32>) outs(%c17 : tensor<16x17xf32>) -> tensor<16x17xf32>
  %r2 = mips.matmul ins(%a16, %b16 : tensor<8x16xf32>, tensor<16x8xf32>) outs(%c16 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %r3 = mips.matmul ins(%a16, %b9 : tensor<8x16xf32>, tensor<16x9xf32>) outs(%c9 : tensor<8x9xf32>) -> tensor<8x9xf32>
  %r4 = mips.matmul ins(%a1, %b1 : tensor<1x17xf32>, tensor<17x1xf32>) outs(%c1 : tensor<1x1xf32>) -> tensor<1x1xf32>
  %r5 = mips.matmul ins(%a4, %x4 : tensor<4x4xf32>, tensor<4x1xf32>) outs(%y4 : tensor<4x1xf32>) -> tensor<4x1xf32>
  return %r0, %r1, %r2, %r3, %r4, %r5 : tensor<16x16xf32>, tensor<16x17xf32>, tensor<8x8xf32>, tensor<8x9xf32>, tensor<1x1xf32>, tensor<4x1xf32>
}

// -----

// With libmips embedded, wide N counts double (16x16x8 and 10x10x10 call the embedded
// libmips); narrow N keeps the default rule (32x8x8 and 12x8x8 stay inline), as does a
// product small enough either way (12x12x7 = 1008).
// CHECK-LABEL:   func.func @embedded
// EMBEDDED:        mips.matmul ins(%{{.*}}, %{{.*}} : tensor<16x8xf32>, tensor<8x16xf32>)
// EMBEDDED-NEXT:   mips.matmul ins(%{{.*}}, %{{.*}} : tensor<10x10xf32>, tensor<10x10xf32>)
// EMBEDDED-NEXT:   mips.matmul inlined ins(%{{.*}}, %{{.*}} : tensor<32x8xf32>, tensor<8x8xf32>)
// EMBEDDED-NEXT:   mips.matmul inlined ins(%{{.*}}, %{{.*}} : tensor<12x7xf32>, tensor<7x12xf32>)
// DEFAULT:         mips.matmul inlined ins(%{{.*}}, %{{.*}} : tensor<16x8xf32>, tensor<8x16xf32>)
// DEFAULT-NEXT:    mips.matmul inlined ins(%{{.*}}, %{{.*}} : tensor<10x10xf32>, tensor<10x10xf32>)
func.func @embedded(%a: tensor<16x8xf32>, %b: tensor<8x16xf32>, %c: tensor<16x16xf32>,
                    %a10: tensor<10x10xf32>, %c10: tensor<10x10xf32>,
                    %a32: tensor<32x8xf32>, %b8: tensor<8x8xf32>, %c32: tensor<32x8xf32>,
                    %a12: tensor<12x7xf32>, %b12: tensor<7x12xf32>, %c12: tensor<12x12xf32>)
    -> (tensor<16x16xf32>, tensor<10x10xf32>, tensor<32x8xf32>, tensor<12x12xf32>) {
  %r0 = mips.matmul ins(%a, %b : tensor<16x8xf32>, tensor<8x16xf32>) outs(%c : tensor<16x16xf32>) -> tensor<16x16xf32>
  %r1 = mips.matmul ins(%a10, %a10 : tensor<10x10xf32>, tensor<10x10xf32>) outs(%c10 : tensor<10x10xf32>) -> tensor<10x10xf32>
  %r2 = mips.matmul ins(%a32, %b8 : tensor<32x8xf32>, tensor<8x8xf32>) outs(%c32 : tensor<32x8xf32>) -> tensor<32x8xf32>
  %r3 = mips.matmul ins(%a12, %b12 : tensor<12x7xf32>, tensor<7x12xf32>) outs(%c12 : tensor<12x12xf32>) -> tensor<12x12xf32>
  return %r0, %r1, %r2, %r3 : tensor<16x16xf32>, tensor<10x10xf32>, tensor<32x8xf32>, tensor<12x12xf32>
}

// -----

// A batch of small entries becomes the loop of entries (rank-reducing slices, the
// shared operand whole), each inlined; a batch of large entries stays one op, for
// convert-mips-to-libmips.
// CHECK-LABEL:   func.func @batches
// DEFAULT:         scf.for
// DEFAULT:           %[[SA:.*]] = tensor.extract_slice %{{.*}} : tensor<3x4x4xf32> to tensor<4x4xf32>
// DEFAULT:           %[[SC:.*]] = tensor.extract_slice %{{.*}} : tensor<3x4x4xf32> to tensor<4x4xf32>
// DEFAULT:           %[[P:.*]] = mips.matmul overwrite inlined ins(%[[SA]], %{{.*}} : tensor<4x4xf32>, tensor<4x4xf32>) outs(%[[SC]] : tensor<4x4xf32>)
// DEFAULT:           tensor.insert_slice %[[P]]
// DEFAULT:         mips.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<3x64x64xf32>, tensor<3x64x64xf32>)
// NEVER:           mips.batch_matmul overwrite ins(%{{.*}}, %{{.*}} : tensor<3x4x4xf32>, tensor<4x4xf32>)
// NEVER:           mips.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<3x64x64xf32>, tensor<3x64x64xf32>)
func.func @batches(%a: tensor<3x4x4xf32>, %w: tensor<4x4xf32>, %c: tensor<3x4x4xf32>,
                   %a64: tensor<3x64x64xf32>, %c64: tensor<3x64x64xf32>)
    -> (tensor<3x4x4xf32>, tensor<3x64x64xf32>) {
  %r0 = mips.batch_matmul overwrite ins(%a, %w : tensor<3x4x4xf32>, tensor<4x4xf32>) outs(%c : tensor<3x4x4xf32>) -> tensor<3x4x4xf32>
  %r1 = mips.batch_matmul ins(%a64, %a64 : tensor<3x64x64xf32>, tensor<3x64x64xf32>) outs(%c64 : tensor<3x64x64xf32>) -> tensor<3x64x64xf32>
  return %r0, %r1 : tensor<3x4x4xf32>, tensor<3x64x64xf32>
}

// -----

// With scalable vectors, f32 shapes wider than 8 columns with K <= 16 run inline up
// to 8 times the threshold (16384 = 64x16x16), linkage or not; K = 32, a larger
// product, int8, a transposed B (whose inline code is loops) and narrow N keep the
// rules above.
// CHECK-LABEL:   func.func @scalable
// SCALABLE:        mips.matmul inlined ins(%{{.*}}, %{{.*}} : tensor<16x16xf32>, tensor<16x16xf32>)
// SCALABLE-NEXT:   mips.matmul inlined ins(%{{.*}}, %{{.*}} : tensor<64x16xf32>, tensor<16x16xf32>)
// SCALABLE-NEXT:   mips.matmul ins(%{{.*}}, %{{.*}} : tensor<65x16xf32>, tensor<16x16xf32>)
// SCALABLE-NEXT:   mips.matmul ins(%{{.*}}, %{{.*}} : tensor<16x32xf32>, tensor<32x16xf32>)
// SCALABLE-NEXT:   mips.matmul ins(%{{.*}}, %{{.*}} : tensor<16x16xi8>, tensor<16x16xi8>)
// SCALABLE-NEXT:   mips.matmul transpose_rhs ins(%{{.*}}, %{{.*}} : tensor<16x16xf32>, tensor<16x16xf32>)
// EMBEDDED:        mips.matmul ins(%{{.*}}, %{{.*}} : tensor<16x16xf32>, tensor<16x16xf32>)
// EMBEDDED-NEXT:   mips.matmul ins(%{{.*}}, %{{.*}} : tensor<64x16xf32>, tensor<16x16xf32>)
func.func @scalable(%a: tensor<16x16xf32>, %c: tensor<16x16xf32>,
                    %a64: tensor<64x16xf32>, %c64: tensor<64x16xf32>,
                    %a65: tensor<65x16xf32>, %c65: tensor<65x16xf32>,
                    %a32: tensor<16x32xf32>, %b32: tensor<32x16xf32>,
                    %a8: tensor<16x16xi8>, %c8: tensor<16x16xi32>)
    -> (tensor<16x16xf32>, tensor<64x16xf32>, tensor<65x16xf32>, tensor<16x16xf32>, tensor<16x16xi32>, tensor<16x16xf32>) {
  %r0 = mips.matmul ins(%a, %a : tensor<16x16xf32>, tensor<16x16xf32>) outs(%c : tensor<16x16xf32>) -> tensor<16x16xf32>
  %r1 = mips.matmul ins(%a64, %a : tensor<64x16xf32>, tensor<16x16xf32>) outs(%c64 : tensor<64x16xf32>) -> tensor<64x16xf32>
  %r2 = mips.matmul ins(%a65, %a : tensor<65x16xf32>, tensor<16x16xf32>) outs(%c65 : tensor<65x16xf32>) -> tensor<65x16xf32>
  %r3 = mips.matmul ins(%a32, %b32 : tensor<16x32xf32>, tensor<32x16xf32>) outs(%c : tensor<16x16xf32>) -> tensor<16x16xf32>
  %r4 = mips.matmul ins(%a8, %a8 : tensor<16x16xi8>, tensor<16x16xi8>) outs(%c8 : tensor<16x16xi32>) -> tensor<16x16xi32>
  %r5 = mips.matmul transpose_rhs ins(%a, %a : tensor<16x16xf32>, tensor<16x16xf32>) outs(%c : tensor<16x16xf32>) -> tensor<16x16xf32>
  return %r0, %r1, %r2, %r3, %r4, %r5 : tensor<16x16xf32>, tensor<64x16xf32>, tensor<65x16xf32>, tensor<16x16xf32>, tensor<16x16xi32>, tensor<16x16xf32>
}
