// SPDX-License-Identifier: Apache-2.0
//===- LinalgToMips.cpp - linalg.matmul to mips.matmul ----------*- C++ -*-===//
//
// Rewrites the linalg.matmul ops that libmips can run into mips.matmul. A
// transposed operand (expressed in LLVM 22 through indexing_maps) becomes a
// flag, never a copy; a zero fill of the init becomes the overwrite flag.
//
//===----------------------------------------------------------------------===//

#include "mips-compiler/Passes.h"

#include "mips-compiler/Dialect/Mips/MipsOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace mips {
#define GEN_PASS_DEF_CONVERTLINALGTOMIPS
#include "mips-compiler/Passes.h.inc"
} // namespace mips
} // namespace mlir

using namespace mlir;

namespace {

/// Element types libmips has kernels for.
static bool isSupportedElementTypes(Type lhs, Type rhs, Type out) {
  if (lhs.isF32() && rhs.isF32() && out.isF32())
    return true;
  return lhs.isSignlessInteger(8) && rhs.isSignlessInteger(8) &&
         out.isSignlessInteger(32);
}

/// Returns the value an init holds if it is a tensor linalg.fill of +0 (the
/// only fill for which `init + A*B` equals `A*B` bit for bit), else null.
static Value getZeroFilledDestination(Value init) {
  auto fill = init.getDefiningOp<linalg::FillOp>();
  if (!fill || !fill.hasPureTensorSemantics())
    return {};
  Value value = fill.getInputs()[0];
  if (!matchPattern(value, m_PosZeroFloat()) && !matchPattern(value, m_Zero()))
    return {};
  return fill.getOutputs()[0];
}

struct MatmulToMipsPattern : OpRewritePattern<linalg::MatmulOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::MatmulOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics())
      return rewriter.notifyMatchFailure(op, "not on tensors");
    if (op.getInputs().size() != 2 || op.getOutputs().size() != 1)
      return rewriter.notifyMatchFailure(op, "expected two inputs, one init");
    Value lhs = op.getInputs()[0], rhs = op.getInputs()[1];
    Value init = op.getOutputs()[0];
    auto lhsType = dyn_cast<RankedTensorType>(lhs.getType());
    auto rhsType = dyn_cast<RankedTensorType>(rhs.getType());
    auto initType = dyn_cast<RankedTensorType>(init.getType());
    if (!lhsType || !rhsType || !initType || lhsType.getRank() != 2 ||
        rhsType.getRank() != 2 || initType.getRank() != 2)
      return rewriter.notifyMatchFailure(op, "operands are not rank-2 tensors");
    if (!isSupportedElementTypes(lhsType.getElementType(),
                                 rhsType.getElementType(),
                                 initType.getElementType()))
      return rewriter.notifyMatchFailure(op, "no libmips kernel for these types");
    if (initType.getElementType().isInteger() &&
        op.getCast() != linalg::TypeFn::cast_signed)
      return rewriter.notifyMatchFailure(op, "libmips extends int8 as signed");

    // d0 = M, d1 = N, d2 = K.
    MLIRContext *ctx = op.getContext();
    AffineExpr m, n, k;
    bindDims(ctx, m, n, k);
    auto map = [&](ArrayRef<AffineExpr> results) {
      return AffineMap::get(3, 0, results, ctx);
    };
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    if (maps.size() != 3 || maps[2] != map({m, n}))
      return rewriter.notifyMatchFailure(op, "unsupported output map");
    bool transposeLhs = maps[0] == map({k, m});
    bool transposeRhs = maps[1] == map({n, k});
    if (!transposeLhs && maps[0] != map({m, k}))
      return rewriter.notifyMatchFailure(op, "unsupported lhs map");
    if (!transposeRhs && maps[1] != map({k, n}))
      return rewriter.notifyMatchFailure(op, "unsupported rhs map");

    bool overwrite = false;
    if (Value destination = getZeroFilledDestination(init)) {
      init = destination;
      overwrite = true;
    }
    rewriter.replaceOpWithNewOp<mips::MatmulOp>(
        op, op.getResultTensors()[0].getType(), lhs, rhs, init, transposeLhs,
        transposeRhs, overwrite);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Pass
//===----------------------------------------------------------------------===//

struct ConvertLinalgToMipsPass
    : mips::impl::ConvertLinalgToMipsBase<ConvertLinalgToMipsPass> {
  using Base::Base;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    mips::populateLinalgToMipsPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

void mlir::mips::populateLinalgToMipsPatterns(RewritePatternSet &patterns) {
  patterns.add<MatmulToMipsPattern>(patterns.getContext());
}
