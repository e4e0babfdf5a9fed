// Every matmul form mips-compile recognises, each reaching libmips (the driver
// counts the calls through the trace provider), plus one small enough to run inline.

// linalg.batch_matmul with a zero init: one call per batch entry.
func.func @batch(%a: tensor<3x13x40xf32>, %b: tensor<3x40x11xf32>) -> tensor<3x13x11xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x13x11xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<3x13x11xf32>) -> tensor<3x13x11xf32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<3x13x40xf32>, tensor<3x40x11xf32>) outs(%f : tensor<3x13x11xf32>) -> tensor<3x13x11xf32>
  return %r : tensor<3x13x11xf32>
}

// Both operands transposed (A stored b x k x m, B stored b x n x k), accumulating.
#bat = affine_map<(b, m, n, k) -> (b, k, m)>
#bbt = affine_map<(b, m, n, k) -> (b, n, k)>
#bc = affine_map<(b, m, n, k) -> (b, m, n)>
func.func @batch_transposed(%at: tensor<?x24x9xf32>, %bt: tensor<?x17x24xf32>, %c: tensor<?x9x17xf32>) -> tensor<?x9x17xf32> {
  %r = linalg.batch_matmul indexing_maps = [#bat, #bbt, #bc]
         ins(%at, %bt : tensor<?x24x9xf32>, tensor<?x17x24xf32>) outs(%c : tensor<?x9x17xf32>) -> tensor<?x9x17xf32>
  return %r : tensor<?x9x17xf32>
}

// A matmul written as linalg.generic, B transposed, int8.
#ga = affine_map<(m, n, k) -> (m, k)>
#gbt = affine_map<(m, n, k) -> (n, k)>
#gc = affine_map<(m, n, k) -> (m, n)>
func.func @generic_i8(%x: tensor<21x70xi8>, %y: tensor<12x70xi8>) -> tensor<21x12xi32> {
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<21x12xi32>
  %f = linalg.fill ins(%zero : i32) outs(%e : tensor<21x12xi32>) -> tensor<21x12xi32>
  %r = linalg.generic {indexing_maps = [#ga, #gbt, #gc], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%x, %y : tensor<21x70xi8>, tensor<12x70xi8>) outs(%f : tensor<21x12xi32>) {
  ^bb0(%p: i8, %q: i8, %acc: i32):
    %pe = arith.extsi %p : i8 to i32
    %qe = arith.extsi %q : i8 to i32
    %m = arith.muli %pe, %qe : i32
    %s = arith.addi %acc, %m : i32
    linalg.yield %s : i32
  } -> tensor<21x12xi32>
  return %r : tensor<21x12xi32>
}

// On buffers, writing into the caller's C (which it accumulates into).
func.func @memref_matmul(%a: memref<?x?xf32, strided<[?, ?], offset: ?>>, %b: memref<?x?xf32, strided<[?, ?], offset: ?>>,
                         %c: memref<?x?xf32, strided<[?, ?], offset: ?>>) {
  linalg.matmul ins(%a, %b : memref<?x?xf32, strided<[?, ?], offset: ?>>, memref<?x?xf32, strided<[?, ?], offset: ?>>)
                outs(%c : memref<?x?xf32, strided<[?, ?], offset: ?>>)
  return
}

func.func @matvec(%a: tensor<?x?xf32>, %x: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %m = tensor.dim %a, %c0 : tensor<?x?xf32>
  %e = tensor.empty(%m) : tensor<?xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  %r = linalg.matvec ins(%a, %x : tensor<?x?xf32>, tensor<?xf32>) outs(%f : tensor<?xf32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}

func.func @vecmat(%x: tensor<130xi8>, %b: tensor<130x19xi8>, %y: tensor<19xi32>) -> tensor<19xi32> {
  %r = linalg.vecmat ins(%x, %b : tensor<130xi8>, tensor<130x19xi8>) outs(%y : tensor<19xi32>) -> tensor<19xi32>
  return %r : tensor<19xi32>
}

// Zero points from the caller: the int8 product by libmips, corrections inline.
func.func @quantized(%a: tensor<?x?xi8>, %b: tensor<?x?xi8>, %c: tensor<?x?xi32>, %za: i32, %zb: i32) -> tensor<?x?xi32> {
  %r = linalg.quantized_matmul ins(%a, %b, %za, %zb : tensor<?x?xi8>, tensor<?x?xi8>, i32, i32) outs(%c : tensor<?x?xi32>) -> tensor<?x?xi32>
  return %r : tensor<?x?xi32>
}

func.func @quantized_batch(%a: tensor<2x11x50xi8>, %b: tensor<2x50x7xi8>) -> tensor<2x11x7xi32> {
  %za = arith.constant -7 : i8
  %zb = arith.constant 100 : i8
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<2x11x7xi32>
  %f = linalg.fill ins(%zero : i32) outs(%e : tensor<2x11x7xi32>) -> tensor<2x11x7xi32>
  %r = linalg.quantized_batch_matmul ins(%a, %b, %za, %zb : tensor<2x11x50xi8>, tensor<2x50x7xi8>, i8, i8) outs(%f : tensor<2x11x7xi32>) -> tensor<2x11x7xi32>
  return %r : tensor<2x11x7xi32>
}

// TOSA as a model exporter writes it: batched f32, and int8 with zero points (a
// unit batch, which needs no loop).
func.func @tosa_f32(%q: tensor<2x16x32xf32>, %k: tensor<2x32x24xf32>) -> tensor<2x16x24xf32> {
  %z = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %r = tosa.matmul %q, %k, %z, %z : (tensor<2x16x32xf32>, tensor<2x32x24xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x16x24xf32>
  return %r : tensor<2x16x24xf32>
}

func.func @tosa_i8(%a: tensor<1x16x64xi8>, %b: tensor<1x64x8xi8>) -> tensor<1x16x8xi32> {
  %za = "tosa.const"() <{values = dense<3> : tensor<1xi8>}> : () -> tensor<1xi8>
  %zb = "tosa.const"() <{values = dense<-5> : tensor<1xi8>}> : () -> tensor<1xi8>
  %r = tosa.matmul %a, %b, %za, %zb : (tensor<1x16x64xi8>, tensor<1x64x8xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x16x8xi32>
  return %r : tensor<1x16x8xi32>
}

// 4x4x4, int8 with -128 in it: small enough to run inline (no call).
func.func @tiny_i8(%a: tensor<4x4xi8>, %b: tensor<4x4xi8>, %c: tensor<4x4xi32>) -> tensor<4x4xi32> {
  %r = linalg.matmul ins(%a, %b : tensor<4x4xi8>, tensor<4x4xi8>) outs(%c : tensor<4x4xi32>) -> tensor<4x4xi32>
  return %r : tensor<4x4xi32>
}

// 6x5x4 on buffers, inline: unit-stride rows of B and C take vector loads, any other
// view the loops (the driver passes both).
func.func @tiny_views(%a: memref<6x4xf32, strided<[?, ?], offset: ?>>, %b: memref<4x5xf32, strided<[?, ?], offset: ?>>,
                      %c: memref<6x5xf32, strided<[?, ?], offset: ?>>) {
  linalg.matmul ins(%a, %b : memref<6x4xf32, strided<[?, ?], offset: ?>>, memref<4x5xf32, strided<[?, ?], offset: ?>>)
                outs(%c : memref<6x5xf32, strided<[?, ?], offset: ?>>)
  return
}

// 18x5x20 on buffers, inline: wider than 8 columns, so on RVV scalable vectors (row
// blocks of 6, columns in chunks of the VLEN, the last under a mask: 3, 2 and 1 chunk at
// VLEN 128, 256 and 512+); then the same with A stored transposed, overwriting C.
#wt_a = affine_map<(m, n, k) -> (k, m)>
#wt_b = affine_map<(m, n, k) -> (k, n)>
#wt_c = affine_map<(m, n, k) -> (m, n)>
func.func @wide_views(%a: memref<18x5xf32, strided<[?, ?], offset: ?>>, %b: memref<5x20xf32, strided<[?, ?], offset: ?>>,
                      %c: memref<18x20xf32, strided<[?, ?], offset: ?>>) {
  linalg.matmul ins(%a, %b : memref<18x5xf32, strided<[?, ?], offset: ?>>, memref<5x20xf32, strided<[?, ?], offset: ?>>)
                outs(%c : memref<18x20xf32, strided<[?, ?], offset: ?>>)
  return
}
func.func @wide_transposed(%at: memref<5x18xf32>, %b: memref<5x20xf32>, %c: memref<18x20xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<18x20xf32>)
  linalg.matmul indexing_maps = [#wt_a, #wt_b, #wt_c]
                ins(%at, %b : memref<5x18xf32>, memref<5x20xf32>) outs(%c : memref<18x20xf32>)
  return
}

// As --linalg-generalize-named-ops writes them: a matvec with its zero fill (both
// generics; the fill becomes overwrite), a vecmat with the vector second, and a
// batch matmul whose B is shared by every batch entry.
#mv_a = affine_map<(i, k) -> (i, k)>
#mv_x = affine_map<(i, k) -> (k)>
#mv_y = affine_map<(i, k) -> (i)>
#vm_b = affine_map<(j, k) -> (k, j)>
#fill1 = affine_map<(i) -> ()>
#id1 = affine_map<(i) -> (i)>
func.func @generic_matvec(%a: tensor<33x45xf32>, %x: tensor<45xf32>) -> tensor<33xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<33xf32>
  %f = linalg.generic {indexing_maps = [#fill1, #id1], iterator_types = ["parallel"]}
    ins(%zero : f32) outs(%e : tensor<33xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<33xf32>
  %r = linalg.generic {indexing_maps = [#mv_a, #mv_x, #mv_y], iterator_types = ["parallel", "reduction"]}
    ins(%a, %x : tensor<33x45xf32>, tensor<45xf32>) outs(%f : tensor<33xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<33xf32>
  return %r : tensor<33xf32>
}

func.func @generic_vecmat_i8(%b: tensor<70x26xi8>, %x: tensor<70xi8>, %y: tensor<26xi32>) -> tensor<26xi32> {
  %r = linalg.generic {indexing_maps = [#vm_b, #mv_x, #mv_y], iterator_types = ["parallel", "reduction"]}
    ins(%b, %x : tensor<70x26xi8>, tensor<70xi8>) outs(%y : tensor<26xi32>) {
  ^bb0(%p: i8, %q: i8, %acc: i32):
    %pe = arith.extsi %p : i8 to i32
    %qe = arith.extsi %q : i8 to i32
    %m = arith.muli %qe, %pe : i32
    %s = arith.addi %m, %acc : i32
    linalg.yield %s : i32
  } -> tensor<26xi32>
  return %r : tensor<26xi32>
}

#bb_a = affine_map<(b, m, n, k) -> (b, m, k)>
#bb_b = affine_map<(b, m, n, k) -> (k, n)>
#bb_c = affine_map<(b, m, n, k) -> (b, m, n)>
func.func @generic_batch_shared_b(%a: tensor<3x10x20xf32>, %b: tensor<20x9xf32>, %c: tensor<3x10x9xf32>) -> tensor<3x10x9xf32> {
  %r = linalg.generic {indexing_maps = [#bb_a, #bb_b, #bb_c], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
    ins(%a, %b : tensor<3x10x20xf32>, tensor<20x9xf32>) outs(%c : tensor<3x10x9xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<3x10x9xf32>
  return %r : tensor<3x10x9xf32>
}

// linalg.contract with B transposed.
#ct_a = affine_map<(m, n, k) -> (m, k)>
#ct_b = affine_map<(m, n, k) -> (n, k)>
#ct_c = affine_map<(m, n, k) -> (m, n)>
func.func @contract(%a: tensor<12x40xf32>, %bt: tensor<18x40xf32>, %c: tensor<12x18xf32>) -> tensor<12x18xf32> {
  %r = linalg.contract indexing_maps = [#ct_a, #ct_b, #ct_c]
         ins(%a, %bt : tensor<12x40xf32>, tensor<18x40xf32>) outs(%c : tensor<12x18xf32>) -> tensor<12x18xf32>
  return %r : tensor<12x18xf32>
}

// Quantized on buffers: the corrections update the caller's C in place.
func.func @quantized_memref(%a: memref<?x?xi8, strided<[?, ?], offset: ?>>, %b: memref<?x?xi8, strided<[?, ?], offset: ?>>,
                            %c: memref<?x?xi32, strided<[?, ?], offset: ?>>, %za: i32, %zb: i32) {
  linalg.quantized_matmul ins(%a, %b, %za, %zb : memref<?x?xi8, strided<[?, ?], offset: ?>>, memref<?x?xi8, strided<[?, ?], offset: ?>>, i32, i32)
                          outs(%c : memref<?x?xi32, strided<[?, ?], offset: ?>>)
  return
}

func.func @quantized_batch_memref(%a: memref<2x9x40xi8>, %b: memref<2x40x13xi8>, %c: memref<2x9x13xi32>, %zb: i8) {
  %za = arith.constant 5 : i8
  linalg.quantized_batch_matmul ins(%a, %b, %za, %zb : memref<2x9x40xi8>, memref<2x40x13xi8>, i8, i8)
                                outs(%c : memref<2x9x13xi32>)
  return
}
