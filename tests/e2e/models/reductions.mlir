// Row reductions, which mips-compile writes as scalable vector code on RVV
// (mips-vectorize-row-reductions), against C loops by drivers/reductions.c: a
// NaN-propagating maximum (NaN in a whole vector, in the tail, as the initial value;
// -0 and +0; rows of -Inf) and a sum in order, bit for bit. Dynamic shapes: the
// driver picks a row length that leaves a tail at every VLEN.
func.func @rmax(%x: tensor<?x?xf32>, %init: tensor<?xf32>) -> tensor<?xf32> {
  %r = linalg.reduce ins(%x : tensor<?x?xf32>) outs(%init : tensor<?xf32>) dimensions = [1]
    (%a: f32, %acc: f32) { %y = arith.maximumf %a, %acc : f32
      linalg.yield %y : f32 }
  return %r : tensor<?xf32>
}
func.func @rsum(%x: tensor<?x?xf32>, %init: tensor<?xf32>) -> tensor<?xf32> {
  %r = linalg.reduce ins(%x : tensor<?x?xf32>) outs(%init : tensor<?xf32>) dimensions = [1]
    (%a: f32, %acc: f32) { %y = arith.addf %acc, %a : f32
      linalg.yield %y : f32 }
  return %r : tensor<?xf32>
}
