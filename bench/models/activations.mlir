// GELU as models write it (erf form) and softmax over rows as three passes.
#id = affine_map<(i, j) -> (i, j)>
func.func @gelu(%x: tensor<64x1024xf32>) -> tensor<64x1024xf32> {
  %e = tensor.empty() : tensor<64x1024xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<64x1024xf32>) outs(%e : tensor<64x1024xf32>) {
  ^bb0(%a: f32, %o: f32):
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %s = arith.constant 0.707106769 : f32
    %xs = arith.mulf %a, %s : f32
    %er = math.erf %xs : f32
    %p = arith.addf %one, %er : f32
    %h = arith.mulf %a, %half : f32
    %y = arith.mulf %h, %p : f32
    linalg.yield %y : f32
  } -> tensor<64x1024xf32>
  return %r : tensor<64x1024xf32>
}
#r = affine_map<(i, j) -> (i)>
func.func @softmax(%x: tensor<256x64xf32>) -> tensor<256x64xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<256xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<256xf32>) -> tensor<256xf32>
  %m = linalg.generic {indexing_maps = [#id, #r], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<256x64xf32>) outs(%m0 : tensor<256xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %y = arith.maximumf %a, %acc : f32
    linalg.yield %y : f32
  } -> tensor<256xf32>
  %e2 = tensor.empty() : tensor<256x64xf32>
  %ex = linalg.generic {indexing_maps = [#id, #r, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %m : tensor<256x64xf32>, tensor<256xf32>) outs(%e2 : tensor<256x64xf32>) {
  ^bb0(%a: f32, %mx: f32, %o: f32):
    %d = arith.subf %a, %mx : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  } -> tensor<256x64xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<256xf32>) -> tensor<256xf32>
  %s = linalg.generic {indexing_maps = [#id, #r], iterator_types = ["parallel", "reduction"]} ins(%ex : tensor<256x64xf32>) outs(%s0 : tensor<256xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %y = arith.addf %a, %acc : f32
    linalg.yield %y : f32
  } -> tensor<256xf32>
  %e3 = tensor.empty() : tensor<256x64xf32>
  %r = linalg.generic {indexing_maps = [#id, #r, #id], iterator_types = ["parallel", "parallel"]} ins(%ex, %s : tensor<256x64xf32>, tensor<256xf32>) outs(%e3 : tensor<256x64xf32>) {
  ^bb0(%a: f32, %t: f32, %o: f32):
    %y = arith.divf %a, %t : f32
    linalg.yield %y : f32
  } -> tensor<256x64xf32>
  return %r : tensor<256x64xf32>
}
// Softmax over the last axis of attention's scores (heads x S x S), of scores / 8, as
// the transformer block writes it (one empty tensor for every full-size result).
#id3 = affine_map<(h, i, j) -> (h, i, j)>
#r3 = affine_map<(h, i, j) -> (h, i)>
func.func @softmax3d(%scores: tensor<4x64x64xf32>) -> tensor<4x64x64xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<4x64x64xf32>
  %em = tensor.empty() : tensor<4x64xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%em : tensor<4x64xf32>) -> tensor<4x64xf32>
  %mx = linalg.generic {indexing_maps = [#id3, #r3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%scores : tensor<4x64x64xf32>) outs(%m0 : tensor<4x64xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %y = arith.maximumf %a, %acc : f32
    linalg.yield %y : f32
  } -> tensor<4x64xf32>
  %ex = linalg.generic {indexing_maps = [#id3, #r3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%scores, %mx : tensor<4x64x64xf32>, tensor<4x64xf32>) outs(%es : tensor<4x64x64xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %scale = arith.constant 0.125 : f32
    %d = arith.subf %a, %m : f32
    %ds = arith.mulf %d, %scale : f32
    %y = math.exp %ds : f32
    linalg.yield %y : f32
  } -> tensor<4x64x64xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%em : tensor<4x64xf32>) -> tensor<4x64xf32>
  %sum = linalg.generic {indexing_maps = [#id3, #r3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%ex : tensor<4x64x64xf32>) outs(%s0 : tensor<4x64xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %y = arith.addf %a, %acc : f32
    linalg.yield %y : f32
  } -> tensor<4x64xf32>
  %p = linalg.generic {indexing_maps = [#id3, #r3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ex, %sum : tensor<4x64x64xf32>, tensor<4x64xf32>) outs(%es : tensor<4x64x64xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %y = arith.divf %a, %s : f32
    linalg.yield %y : f32
  } -> tensor<4x64x64xf32>
  return %p : tensor<4x64x64xf32>
}
