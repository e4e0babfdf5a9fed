// SPDX-License-Identifier: Apache-2.0
//===- Contractions.cpp - which linalg contractions libmips runs -*- C++ -*-===//

#include "mips-compiler/Dialect/Mips/Contractions.h"

#include "mips-compiler/Dialect/Mips/MipsOps.h"

using namespace mlir;

FailureOr<mips::MatmulLayout> mlir::mips::matchMatmulLayout(ArrayRef<AffineMap> maps, bool batched,
                                                         MLIRContext *ctx) {
  unsigned first = batched ? 1 : 0;
  AffineExpr bDim = getAffineDimExpr(0, ctx);
  AffineExpr m = getAffineDimExpr(first, ctx), n = getAffineDimExpr(first + 1, ctx),
             k = getAffineDimExpr(first + 2, ctx);
  auto map = [&](bool withBatch, AffineExpr x, AffineExpr y) {
    SmallVector<AffineExpr> results;
    if (withBatch)
      results.push_back(bDim);
    results.append({x, y});
    return AffineMap::get(first + 3, 0, results, ctx);
  };
  if (maps.size() != 3 || maps[2] != map(batched, m, n))
    return failure();
  mips::MatmulLayout layout;
  auto matchOperand = [&](AffineMap actual, AffineExpr outer, AffineExpr inner,
                          bool &transposed, bool &hasBatch) {
    for (bool withBatch : {batched, false})
      for (bool swap : {false, true})
        if (actual == (swap ? map(withBatch, inner, outer) : map(withBatch, outer, inner))) {
          transposed = swap;
          hasBatch = withBatch;
          return true;
        }
    return false;
  };
  if (!matchOperand(maps[0], m, k, layout.transposeLhs, layout.lhsBatched) ||
      !matchOperand(maps[1], k, n, layout.transposeRhs, layout.rhsBatched))
    return failure();
  return layout;
}


LogicalResult mlir::mips::checkLibmipsContraction(PatternRewriter &rewriter, linalg::LinalgOp op,
                                                 bool signedCast) {
  Type lhs = getElementTypeOrSelf(op.getDpsInputs()[0].getType());
  Type rhs = getElementTypeOrSelf(op.getDpsInputs()[1].getType());
  Type acc = getElementTypeOrSelf(op.getDpsInits()[0].getType());
  if (!mips::isMatmulElementTypes(lhs, rhs, acc))
    return rewriter.notifyMatchFailure(op, "no libmips kernel for these element types");
  if (acc.isInteger() && !signedCast)
    return rewriter.notifyMatchFailure(op, "libmips extends int8 as signed");
  if (!op.hasPureTensorSemantics() && !op.hasPureBufferSemantics())
    return rewriter.notifyMatchFailure(op, "mixes tensors and memrefs");
  for (Value operand : op->getOperands())
    if (auto memref = dyn_cast<MemRefType>(operand.getType());
        memref && !mips::isPlainStridedMemRef(memref))
      return rewriter.notifyMatchFailure(op, "a memref that is not strided or not in the "
                                             "default memory space");
  return success();
}

