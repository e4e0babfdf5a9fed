// SPDX-License-Identifier: Apache-2.0
//===- DecomposeQuantizedMatmuls.cpp - int8 product + corrections -*- C++ -*-===//
//
// linalg.quantized_matmul and quantized_batch_matmul, whose int8 operands
// libmips can multiply, become the plain int8 (batch) matmul plus the zero-point
// corrections: linalg ops on tensors, loops updating C in place on buffers.
//
//===----------------------------------------------------------------------===//

#include "mips-compiler/Transforms/Passes.h"

#include "mips-compiler/Dialect/Mips/BatchMatmulLoop.h"
#include "mips-compiler/Dialect/Mips/MipsOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace mips {
#define GEN_PASS_DEF_MIPSDECOMPOSEQUANTIZEDMATMULS
#include "mips-compiler/Transforms/Passes.h.inc"
} // namespace mips
} // namespace mlir

using namespace mlir;

namespace {

/// A zero point as the i32 the op's semantics cast it to, or null.
static Value castZeroPoint(OpBuilder &b, Location loc, Value zeroPoint) {
  auto type = dyn_cast<IntegerType>(zeroPoint.getType());
  if (!type)
    return {};
  Type i32 = b.getI32Type();
  if (type.getWidth() < 32)
    return arith::ExtSIOp::create(b, loc, i32, zeroPoint);
  if (type.getWidth() > 32)
    return arith::TruncIOp::create(b, loc, i32, zeroPoint);
  return zeroPoint;
}

/// sum over K of the int8 `operand` (lhs: per row; rhs: per column), in i32:
/// a zero-filled (b?, rows) tensor reduced by a linalg.generic.
static Value sumOverK(OpBuilder &b, Location loc, Value operand, bool isLhs, bool batched) {
  MLIRContext *ctx = b.getContext();
  auto type = cast<RankedTensorType>(operand.getType());
  unsigned rank = type.getRank();
  // Iterate (b?, kept, k); the operand is (b?, kept, k) for the lhs, (b?, k, kept)
  // for the rhs.
  unsigned kept = rank - 2 + (isLhs ? 0 : 1);
  SmallVector<AffineExpr> iterDims, operandDims, sumDims;
  for (unsigned d = 0; d < rank; ++d)
    iterDims.push_back(getAffineDimExpr(d, ctx));
  SmallVector<OpFoldResult> sumSizes;
  SmallVector<int64_t> sumShape;
  if (batched) {
    sumSizes.push_back(mips::getMixedExtent(b, loc, operand, 0));
    sumShape.push_back(type.getDimSize(0));
    sumDims.push_back(iterDims[0]);
  }
  sumSizes.push_back(mips::getMixedExtent(b, loc, operand, kept));
  sumShape.push_back(type.getDimSize(kept));
  sumDims.push_back(iterDims[rank - 2]);
  if (batched)
    operandDims.push_back(iterDims[0]);
  AffineExpr keptExpr = iterDims[rank - 2], kExpr = iterDims[rank - 1];
  if (isLhs)
    operandDims.append({keptExpr, kExpr});
  else
    operandDims.append({kExpr, keptExpr});

  Type i32 = b.getI32Type();
  Value empty = tensor::EmptyOp::create(b, loc, sumSizes, i32);
  Value zero = arith::ConstantIntOp::create(b, loc, i32, 0);
  Value init = linalg::FillOp::create(b, loc, zero, empty).getResult(0);
  SmallVector<AffineMap> maps = {AffineMap::get(rank, 0, operandDims, ctx),
                                 AffineMap::get(rank, 0, sumDims, ctx)};
  SmallVector<utils::IteratorType> iterators(rank, utils::IteratorType::parallel);
  iterators.back() = utils::IteratorType::reduction;
  auto generic = linalg::GenericOp::create(
      b, loc, init.getType(), ValueRange{operand}, ValueRange{init}, maps, iterators,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Value wide = arith::ExtSIOp::create(nb, nloc, i32, args[0]);
        linalg::YieldOp::create(nb, nloc,
                                ValueRange{arith::AddIOp::create(nb, nloc, args[1], wide)});
      });
  return generic.getResult(0);
}

/// sum over [0, n) of `term(index)` in i32.
static Value sumOver(OpBuilder &b, Location loc, Value n,
                     function_ref<Value(OpBuilder &, Value)> term) {
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value none = arith::ConstantIntOp::create(b, loc, b.getI32Type(), 0);
  auto loop = scf::ForOp::create(
      b, loc, zero, n, one, ValueRange{none},
      [&](OpBuilder &nb, Location nloc, Value index, ValueRange acc) {
        scf::YieldOp::create(nb, nloc,
                             ValueRange{arith::AddIOp::create(nb, nloc, acc[0], term(nb, index))});
      });
  return loop.getResult(0);
}

/// for outer in [0, outerCount): t = term(outer); for inner: c[at(outer, inner)] -= t.
static void subtractAlong(OpBuilder &b, Location loc, Value c, Value outerCount,
                          Value innerCount, bool outerIsRow,
                          function_ref<Value(OpBuilder &, Value)> term) {
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  scf::ForOp::create(
      b, loc, zero, outerCount, one, ValueRange{},
      [&](OpBuilder &ob, Location oloc, Value outer, ValueRange) {
        Value t = term(ob, outer);
        scf::ForOp::create(
            ob, oloc, zero, innerCount, one, ValueRange{},
            [&](OpBuilder &ib, Location iloc, Value inner, ValueRange) {
              SmallVector<Value> at = outerIsRow ? SmallVector<Value>{outer, inner}
                                                 : SmallVector<Value>{inner, outer};
              Value old = memref::LoadOp::create(ib, iloc, c, at);
              memref::StoreOp::create(ib, iloc, arith::SubIOp::create(ib, iloc, old, t), c, at);
              scf::YieldOp::create(ib, iloc);
            });
        scf::YieldOp::create(ob, oloc);
      });
}

/// The zero-point corrections of a quantized matmul on buffers, in place on C
/// (which already holds C + A*B), with no temporary buffer: row i of C loses
/// zb * rowsum_i(A), column j loses za * colsum_j(B) - K za zb. A null zero
/// point is known to be 0. Batched operands loop over the batch.
static void correctBuffer(OpBuilder &b, Location loc, Value a, Value bm, Value c, Value za,
                          Value zb) {
  if (!za && !zb)
    return;
  if (cast<MemRefType>(c.getType()).getRank() == 3) {
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    Value batch = getValueOrCreateConstantIndexOp(b, loc, mips::getMixedExtent(b, loc, c, 0));
    scf::ForOp::create(b, loc, zero, batch, one, ValueRange{},
                       [&](OpBuilder &nb, Location nloc, Value index, ValueRange) {
                         correctBuffer(nb, nloc, mips::sliceBatchEntry(nb, nloc, a, index),
                                       mips::sliceBatchEntry(nb, nloc, bm, index),
                                       mips::sliceBatchEntry(nb, nloc, c, index), za, zb);
                         scf::YieldOp::create(nb, nloc);
                       });
    return;
  }
  auto extent = [&](Value v, int64_t d) {
    return getValueOrCreateConstantIndexOp(b, loc, mips::getMixedExtent(b, loc, v, d));
  };
  Value m = extent(a, 0), k = extent(a, 1), n = extent(bm, 1);
  Type i32 = b.getI32Type();
  auto widened = [&](OpBuilder &nb, Value source, ValueRange at) -> Value {
    return arith::ExtSIOp::create(nb, loc, i32, memref::LoadOp::create(nb, loc, source, at));
  };
  if (zb)
    subtractAlong(b, loc, c, m, n, /*outerIsRow=*/true, [&](OpBuilder &nb, Value i) -> Value {
      Value rowSum = sumOver(nb, loc, k, [&](OpBuilder &kb, Value l) {
        return widened(kb, a, ValueRange{i, l});
      });
      return arith::MulIOp::create(nb, loc, zb, rowSum);
    });
  if (za) {
    // K za zb is 0 unless both zero points may be nonzero.
    Value kzz = zb ? arith::MulIOp::create(
                         b, loc, arith::IndexCastOp::create(b, loc, i32, k),
                         arith::MulIOp::create(b, loc, za, zb))
                         .getResult()
                   : Value();
    subtractAlong(b, loc, c, n, m, /*outerIsRow=*/false, [&](OpBuilder &nb, Value j) -> Value {
      Value colSum = sumOver(nb, loc, k, [&](OpBuilder &kb, Value l) {
        return widened(kb, bm, ValueRange{l, j});
      });
      Value t = arith::MulIOp::create(nb, loc, za, colSum);
      return kzz ? arith::SubIOp::create(nb, loc, t, kzz).getResult() : t;
    });
  }
}

/// sum_k (a - za)(b - zb) = sum_k a b - zb rowsum(A) - za colsum(B) + K za zb:
/// the first term is a plain int8 matmul (which libmips runs), the others are
/// O(MK + KN + MN) linalg ops. i32 arithmetic wraps, so the identity is exact
/// modulo 2^32, like the op itself.
template <typename OpTy, bool kBatched>
struct QuantizedMatmulToMatmul : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op, PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics() && !op.hasPureBufferSemantics())
      return rewriter.notifyMatchFailure(op, "mixes tensors and memrefs");
    Value a = op.getDpsInputs()[0], bm = op.getDpsInputs()[1];
    Value init = op.getDpsInits()[0];
    if (!mips::isMatmulElementTypes(getElementTypeOrSelf(a), getElementTypeOrSelf(bm),
                                    getElementTypeOrSelf(init)))
      return rewriter.notifyMatchFailure(op, "no libmips kernel for these element types");
    Location loc = op.getLoc();
    Value za = castZeroPoint(rewriter, loc, op.getDpsInputs()[2]);
    Value zb = castZeroPoint(rewriter, loc, op.getDpsInputs()[3]);
    if (!za || !zb)
      return rewriter.notifyMatchFailure(op, "zero points are not integers");

    bool zaIsZero = matchPattern(za, m_Zero()), zbIsZero = matchPattern(zb, m_Zero());
    // The int8 product: on buffers it accumulates into C, on tensors it is a value.
    SmallVector<Type> productTypes;
    if (op.hasPureTensorSemantics())
      productTypes.push_back(init.getType());
    Operation *productOp;
    if constexpr (kBatched)
      productOp = linalg::BatchMatmulOp::create(rewriter, loc, productTypes, ValueRange{a, bm},
                                                ValueRange{init});
    else
      productOp = linalg::MatmulOp::create(rewriter, loc, productTypes, ValueRange{a, bm},
                                           ValueRange{init});
    if (op.hasPureBufferSemantics()) {
      correctBuffer(rewriter, loc, a, bm, init, zaIsZero ? Value() : za, zbIsZero ? Value() : zb);
      rewriter.eraseOp(op);
      return success();
    }

    Value product = productOp->getResult(0);
    if (zaIsZero && zbIsZero) {
      rewriter.replaceOp(op, product);
      return success();
    }
    MLIRContext *ctx = op.getContext();
    Type i32 = rewriter.getI32Type();
    unsigned rank = kBatched ? 3 : 2;
    Value rowSums = zbIsZero ? Value() : sumOverK(rewriter, loc, a, /*isLhs=*/true, kBatched);
    Value colSums = zaIsZero ? Value() : sumOverK(rewriter, loc, bm, /*isLhs=*/false, kBatched);
    Value k = arith::IndexCastOp::create(
        rewriter, loc, i32,
        getValueOrCreateConstantIndexOp(rewriter, loc, mips::getMixedExtent(rewriter, loc, a, rank - 1)));
    Value kzz = arith::MulIOp::create(rewriter, loc, k, arith::MulIOp::create(rewriter, loc, za, zb));

    // Iterate (b?, m, n).
    SmallVector<AffineExpr> dims;
    for (unsigned d = 0; d < rank; ++d)
      dims.push_back(getAffineDimExpr(d, ctx));
    auto project = [&](bool keepM) {
      SmallVector<AffineExpr> results;
      if (kBatched)
        results.push_back(dims[0]);
      results.push_back(keepM ? dims[rank - 2] : dims[rank - 1]);
      return AffineMap::get(rank, 0, results, ctx);
    };
    SmallVector<Value> inputs;
    SmallVector<AffineMap> maps;
    if (rowSums) {
      inputs.push_back(rowSums);
      maps.push_back(project(/*keepM=*/true));
    }
    if (colSums) {
      inputs.push_back(colSums);
      maps.push_back(project(/*keepM=*/false));
    }
    maps.push_back(AffineMap::getMultiDimIdentityMap(rank, ctx));
    SmallVector<utils::IteratorType> iterators(rank, utils::IteratorType::parallel);
    auto corrected = linalg::GenericOp::create(
        rewriter, loc, product.getType(), inputs, ValueRange{product}, maps, iterators,
        [&](OpBuilder &b, Location nloc, ValueRange args) {
          Value acc = args.back();
          unsigned next = 0;
          if (rowSums)
            acc = arith::SubIOp::create(b, nloc, acc,
                                        arith::MulIOp::create(b, nloc, zb, args[next++]));
          if (colSums)
            acc = arith::SubIOp::create(b, nloc, acc,
                                        arith::MulIOp::create(b, nloc, za, args[next++]));
          acc = arith::AddIOp::create(b, nloc, acc, kzz);
          linalg::YieldOp::create(b, nloc, ValueRange{acc});
        });
    rewriter.replaceOp(op, corrected.getResults());
    return success();
  }
};

struct MipsDecomposeQuantizedMatmulsPass
    : mips::impl::MipsDecomposeQuantizedMatmulsBase<MipsDecomposeQuantizedMatmulsPass> {
  using Base::Base;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<QuantizedMatmulToMatmul<linalg::QuantizedMatmulOp, /*kBatched=*/false>,
                 QuantizedMatmulToMatmul<linalg::QuantizedBatchMatmulOp, /*kBatched=*/true>>(
        &getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
