// SPDX-License-Identifier: Apache-2.0
//===- RaiseContractions.cpp - generic matmuls to named ops -----*- C++ -*-===//
//
// The contractions libmips can run, written as linalg.generic or linalg.contract,
// become the named linalg ops convert-linalg-to-mips takes: (batch) matmuls with
// their indexing maps, matvecs and vecmats. Others are left alone.
//
//===----------------------------------------------------------------------===//

#include "mips-compiler/Transforms/Passes.h"

#include "mips-compiler/Dialect/Mips/Contractions.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace mips {
#define GEN_PASS_DEF_MIPSRAISECONTRACTIONS
#include "mips-compiler/Transforms/Passes.h.inc"
} // namespace mips
} // namespace mlir

using namespace mlir;

namespace {

/// True if the body of `op` computes acc + a * b (floats) or
/// acc + sext(a) * sext(b) (integers), with nothing else.
static bool isMultiplyAccumulateBody(linalg::GenericOp op, bool isInteger) {
  Block &body = op.getRegion().front();
  if (llvm::range_size(body.getOperations()) != (isInteger ? 5u : 3u))
    return false;
  Value a = body.getArgument(0), b = body.getArgument(1), acc = body.getArgument(2);
  Operation *add = body.getTerminator()->getOperand(0).getDefiningOp();
  if (!add || !(isInteger ? isa<arith::AddIOp>(add) : isa<arith::AddFOp>(add)))
    return false;
  Value product = add->getOperand(0) == acc   ? add->getOperand(1)
                  : add->getOperand(1) == acc ? add->getOperand(0)
                                              : Value();
  Operation *mul = product ? product.getDefiningOp() : nullptr;
  if (!mul || !(isInteger ? isa<arith::MulIOp>(mul) : isa<arith::MulFOp>(mul)))
    return false;
  auto source = [&](Value factor) -> Value {
    if (!isInteger)
      return factor;
    auto extend = factor.getDefiningOp<arith::ExtSIOp>();
    return extend ? extend.getIn() : Value();
  };
  Value x = source(mul->getOperand(0)), y = source(mul->getOperand(1));
  return (x == a && y == b) || (x == b && y == a);
}

/// The named (batch) matmul with `op`'s maps and operands, replacing `op`, if the
/// maps are a (transposed) matmul, or a batch matmul with at least one batched
/// operand.
static LogicalResult replaceWithNamedMatmul(PatternRewriter &rewriter, linalg::LinalgOp op,
                                            bool batched) {
  FailureOr<mips::MatmulLayout> layout =
      mips::matchMatmulLayout(op.getIndexingMapsArray(), batched, op.getContext());
  if (failed(layout) || (batched && !layout->lhsBatched && !layout->rhsBatched))
    return rewriter.notifyMatchFailure(op, "indexing maps are not a (transposed) matmul");
  NamedAttribute maps = rewriter.getNamedAttr("indexing_maps", op.getIndexingMaps());
  SmallVector<Type> results(op->getResultTypes());
  SmallVector<Value> inputs(op.getDpsInputs()), inits(op.getDpsInits());
  Operation *named =
      batched ? linalg::BatchMatmulOp::create(rewriter, op.getLoc(), results, inputs, inits,
                                              ArrayRef<NamedAttribute>{maps})
                    .getOperation()
              : linalg::MatmulOp::create(rewriter, op.getLoc(), results, inputs, inits,
                                         ArrayRef<NamedAttribute>{maps})
                    .getOperation();
  rewriter.replaceOp(op, named->getResults());
  return success();
}

/// A linalg.generic that is a (batch) matmul, a matvec or a vecmat, as frontends
/// and --linalg-generalize-named-ops write them: the named op, which
/// convert-linalg-to-mips converts. Upstream's linalg-specialize-generic-ops is not used:
/// in LLVM 22 it turns a transposed matmul into a plain linalg.matmul that fails
/// verification.
struct GenericMatmulToNamed : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1)
      return rewriter.notifyMatchFailure(op, "not two inputs and one init");
    unsigned loops = op.getNumLoops();
    if (loops < 2 || loops > 4)
      return rewriter.notifyMatchFailure(op, "not a matmul-like iteration space");
    SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
    for (unsigned d = 0; d < loops; ++d)
      if (iterators[d] != (d + 1 == loops ? utils::IteratorType::reduction
                                          : utils::IteratorType::parallel))
        return rewriter.notifyMatchFailure(op, "iterators are not parallel then one reduction");
    if (failed(mips::checkLibmipsContraction(rewriter, op, /*signedCast=*/true)))
      return failure();
    bool isInteger = getElementTypeOrSelf(op.getDpsInits()[0].getType()).isInteger();
    if (!isMultiplyAccumulateBody(op, isInteger))
      return rewriter.notifyMatchFailure(op, "body is not a multiply-accumulate");
    if (loops == 2)
      return rewriteGenericVectorProduct(rewriter, op);
    return replaceWithNamedMatmul(rewriter, op, /*batched=*/loops == 4);
  }

private:
  /// Iterating (i, k) into y(i): a matrix indexed (i, k) is y = M x, one indexed
  /// (k, i) is y = x M; the vector is indexed (k). Either operand may come first.
  static LogicalResult rewriteGenericVectorProduct(PatternRewriter &rewriter,
                                                   linalg::GenericOp op) {
    MLIRContext *ctx = op.getContext();
    AffineExpr i = getAffineDimExpr(0, ctx), k = getAffineDimExpr(1, ctx);
    auto map = [&](ArrayRef<AffineExpr> results) { return AffineMap::get(2, 0, results, ctx); };
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    if (maps[2] != map({i}))
      return rewriter.notifyMatchFailure(op, "output is not indexed by the parallel dimension");
    for (unsigned vectorIndex : {0u, 1u}) {
      AffineMap matrixMap = maps[1 - vectorIndex];
      if (maps[vectorIndex] != map({k}) || (matrixMap != map({i, k}) && matrixMap != map({k, i})))
        continue;
      Value matrix = op.getDpsInputs()[1 - vectorIndex], vector = op.getDpsInputs()[vectorIndex];
      SmallVector<Type> results(op->getResultTypes());
      SmallVector<Value> inits(op.getDpsInits());
      Operation *named =
          matrixMap == map({k, i})
              ? linalg::VecmatOp::create(rewriter, op.getLoc(), results,
                                         ValueRange{vector, matrix}, inits)
                    .getOperation()
              : linalg::MatvecOp::create(rewriter, op.getLoc(), results,
                                         ValueRange{matrix, vector}, inits)
                    .getOperation();
      rewriter.replaceOp(op, named->getResults());
      return success();
    }
    return rewriter.notifyMatchFailure(op, "indexing maps are not a matvec or vecmat");
  }
};

/// linalg.contract in a (batch) matmul's dimension order, (b?, m, n, k), with
/// signed extension: the named op. Other dimension orders stay loops.
struct ContractMatmulToNamed : OpRewritePattern<linalg::ContractOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::ContractOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1)
      return rewriter.notifyMatchFailure(op, "not two inputs and one init");
    unsigned loops = op.getNumLoops();
    if (loops != 3 && loops != 4)
      return rewriter.notifyMatchFailure(op, "not a (batch) matmul iteration space");
    if (failed(mips::checkLibmipsContraction(rewriter, op, op.getCast() == linalg::TypeFn::cast_signed)))
      return failure();
    return replaceWithNamedMatmul(rewriter, op, /*batched=*/loops == 4);
  }
};


struct MipsRaiseContractionsPass
    : mips::impl::MipsRaiseContractionsBase<MipsRaiseContractionsPass> {
  using Base::Base;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<GenericMatmulToNamed, ContractMatmulToNamed>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
