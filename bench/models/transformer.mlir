// One transformer encoder block as linalg on tensors: S=64 tokens, D=256, 4 heads of
// 64, FFN 1024 with erf-GELU; layernorms without learned scale. Weights come in three
// arguments: %wa = [Wq | Wk | Wv | Wo] (256x1024), %w1 (256x1024), %w2 (1024x256).
#rows = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
#r3 = affine_map<(h, i, j) -> (h, i, j)>
#r3row = affine_map<(h, i, j) -> (h, i)>

func.func private @layernorm(%x: tensor<64x256xf32>) -> tensor<64x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<64xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<64xf32>) -> tensor<64xf32>
  %sum = linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<64x256xf32>) outs(%s0 : tensor<64xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %y = arith.addf %a, %acc : f32
    linalg.yield %y : f32
  } -> tensor<64xf32>
  %sq = linalg.generic {indexing_maps = [#rows, #row, #row], iterator_types = ["parallel", "reduction"]} ins(%x, %sum : tensor<64x256xf32>, tensor<64xf32>) outs(%s0 : tensor<64xf32>) {
  ^bb0(%a: f32, %s: f32, %acc: f32):
    %n = arith.constant 3.906250e-03 : f32
    %mean = arith.mulf %s, %n : f32
    %d = arith.subf %a, %mean : f32
    %d2 = arith.mulf %d, %d : f32
    %y = arith.addf %d2, %acc : f32
    linalg.yield %y : f32
  } -> tensor<64xf32>
  %e2 = tensor.empty() : tensor<64x256xf32>
  %r = linalg.generic {indexing_maps = [#rows, #row, #row, #rows], iterator_types = ["parallel", "parallel"]} ins(%x, %sum, %sq : tensor<64x256xf32>, tensor<64xf32>, tensor<64xf32>) outs(%e2 : tensor<64x256xf32>) {
  ^bb0(%a: f32, %s: f32, %v: f32, %o: f32):
    %n = arith.constant 3.906250e-03 : f32
    %eps = arith.constant 1.0e-05 : f32
    %mean = arith.mulf %s, %n : f32
    %var = arith.mulf %v, %n : f32
    %ve = arith.addf %var, %eps : f32
    %inv = math.rsqrt %ve : f32
    %d = arith.subf %a, %mean : f32
    %y = arith.mulf %d, %inv : f32
    linalg.yield %y : f32
  } -> tensor<64x256xf32>
  return %r : tensor<64x256xf32>
}

func.func private @project(%x: tensor<64x256xf32>, %w: tensor<256x256xf32>) -> tensor<64x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x256xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x256xf32>) -> tensor<64x256xf32>
  %r = linalg.matmul ins(%x, %w : tensor<64x256xf32>, tensor<256x256xf32>) outs(%f : tensor<64x256xf32>) -> tensor<64x256xf32>
  return %r : tensor<64x256xf32>
}

// [64 tokens, 256] -> [4 heads, 64 tokens, 64]
func.func private @heads(%x: tensor<64x256xf32>) -> tensor<4x64x64xf32> {
  %s = tensor.expand_shape %x [[0], [1, 2]] output_shape [64, 4, 64] : tensor<64x256xf32> into tensor<64x4x64xf32>
  %e = tensor.empty() : tensor<4x64x64xf32>
  %t = linalg.transpose ins(%s : tensor<64x4x64xf32>) outs(%e : tensor<4x64x64xf32>) permutation = [1, 0, 2]
  return %t : tensor<4x64x64xf32>
}

func.func @block(%x: tensor<64x256xf32>, %wa: tensor<256x1024xf32>, %w1: tensor<256x1024xf32>, %w2: tensor<1024x256xf32>) -> tensor<64x256xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %wq = tensor.extract_slice %wa[0, 0] [256, 256] [1, 1] : tensor<256x1024xf32> to tensor<256x256xf32>
  %wk = tensor.extract_slice %wa[0, 256] [256, 256] [1, 1] : tensor<256x1024xf32> to tensor<256x256xf32>
  %wv = tensor.extract_slice %wa[0, 512] [256, 256] [1, 1] : tensor<256x1024xf32> to tensor<256x256xf32>
  %wo = tensor.extract_slice %wa[0, 768] [256, 256] [1, 1] : tensor<256x1024xf32> to tensor<256x256xf32>
  %n1 = func.call @layernorm(%x) : (tensor<64x256xf32>) -> tensor<64x256xf32>
  %q = func.call @project(%n1, %wq) : (tensor<64x256xf32>, tensor<256x256xf32>) -> tensor<64x256xf32>
  %k = func.call @project(%n1, %wk) : (tensor<64x256xf32>, tensor<256x256xf32>) -> tensor<64x256xf32>
  %v = func.call @project(%n1, %wv) : (tensor<64x256xf32>, tensor<256x256xf32>) -> tensor<64x256xf32>
  %qh = func.call @heads(%q) : (tensor<64x256xf32>) -> tensor<4x64x64xf32>
  %kh = func.call @heads(%k) : (tensor<64x256xf32>) -> tensor<4x64x64xf32>
  %vh = func.call @heads(%v) : (tensor<64x256xf32>) -> tensor<4x64x64xf32>
  // scores = Q K^T / 8
  %es = tensor.empty() : tensor<4x64x64xf32>
  %fs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x64x64xf32>) -> tensor<4x64x64xf32>
  %scores = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>] ins(%qh, %kh : tensor<4x64x64xf32>, tensor<4x64x64xf32>) outs(%fs : tensor<4x64x64xf32>) -> tensor<4x64x64xf32>
  // softmax over the last axis, of scores / 8
  %em = tensor.empty() : tensor<4x64xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%em : tensor<4x64xf32>) -> tensor<4x64xf32>
  %mx = linalg.generic {indexing_maps = [#r3, #r3row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%scores : tensor<4x64x64xf32>) outs(%m0 : tensor<4x64xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %y = arith.maximumf %a, %acc : f32
    linalg.yield %y : f32
  } -> tensor<4x64xf32>
  %ex = linalg.generic {indexing_maps = [#r3, #r3row, #r3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%scores, %mx : tensor<4x64x64xf32>, tensor<4x64xf32>) outs(%es : tensor<4x64x64xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %scale = arith.constant 0.125 : f32
    %d = arith.subf %a, %m : f32
    %ds = arith.mulf %d, %scale : f32
    %y = math.exp %ds : f32
    linalg.yield %y : f32
  } -> tensor<4x64x64xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%em : tensor<4x64xf32>) -> tensor<4x64xf32>
  %sum = linalg.generic {indexing_maps = [#r3, #r3row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%ex : tensor<4x64x64xf32>) outs(%s0 : tensor<4x64xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %y = arith.addf %a, %acc : f32
    linalg.yield %y : f32
  } -> tensor<4x64xf32>
  %p = linalg.generic {indexing_maps = [#r3, #r3row, #r3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ex, %sum : tensor<4x64x64xf32>, tensor<4x64xf32>) outs(%es : tensor<4x64x64xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %y = arith.divf %a, %s : f32
    linalg.yield %y : f32
  } -> tensor<4x64x64xf32>
  // context = P V, back to [64, 256]
  %ctx = linalg.batch_matmul ins(%p, %vh : tensor<4x64x64xf32>, tensor<4x64x64xf32>) outs(%fs : tensor<4x64x64xf32>) -> tensor<4x64x64xf32>
  %et = tensor.empty() : tensor<64x4x64xf32>
  %ct = linalg.transpose ins(%ctx : tensor<4x64x64xf32>) outs(%et : tensor<64x4x64xf32>) permutation = [1, 0, 2]
  %c2 = tensor.collapse_shape %ct [[0], [1, 2]] : tensor<64x4x64xf32> into tensor<64x256xf32>
  %att = func.call @project(%c2, %wo) : (tensor<64x256xf32>, tensor<256x256xf32>) -> tensor<64x256xf32>
  %e2 = tensor.empty() : tensor<64x256xf32>
  %h1 = linalg.add ins(%x, %att : tensor<64x256xf32>, tensor<64x256xf32>) outs(%e2 : tensor<64x256xf32>) -> tensor<64x256xf32>
  // FFN with erf-GELU
  %n2 = func.call @layernorm(%h1) : (tensor<64x256xf32>) -> tensor<64x256xf32>
  %ef = tensor.empty() : tensor<64x1024xf32>
  %ff = linalg.fill ins(%zero : f32) outs(%ef : tensor<64x1024xf32>) -> tensor<64x1024xf32>
  %up = linalg.matmul ins(%n2, %w1 : tensor<64x256xf32>, tensor<256x1024xf32>) outs(%ff : tensor<64x1024xf32>) -> tensor<64x1024xf32>
  %g = linalg.generic {indexing_maps = [#rows, #rows], iterator_types = ["parallel", "parallel"]} ins(%up : tensor<64x1024xf32>) outs(%ef : tensor<64x1024xf32>) {
  ^bb0(%a: f32, %o: f32):
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %s = arith.constant 0.707106769 : f32
    %xs = arith.mulf %a, %s : f32
    %er = math.erf %xs : f32
    %pp = arith.addf %one, %er : f32
    %h = arith.mulf %a, %half : f32
    %y = arith.mulf %h, %pp : f32
    linalg.yield %y : f32
  } -> tensor<64x1024xf32>
  %fd = linalg.fill ins(%zero : f32) outs(%e2 : tensor<64x256xf32>) -> tensor<64x256xf32>
  %down = linalg.matmul ins(%g, %w2 : tensor<64x1024xf32>, tensor<1024x256xf32>) outs(%fd : tensor<64x256xf32>) -> tensor<64x256xf32>
  %out = linalg.add ins(%h1, %down : tensor<64x256xf32>, tensor<64x256xf32>) outs(%e2 : tensor<64x256xf32>) -> tensor<64x256xf32>
  return %out : tensor<64x256xf32>
}
