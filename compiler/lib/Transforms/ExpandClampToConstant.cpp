// SPDX-License-Identifier: Apache-2.0
//===- ExpandClampToConstant.cpp - ReLU-like maxima in three ops --*- C++ -*-===//
//
// arith.maximumf propagates NaN, which RVV's vfmax does not: LLVM lowers it to
// two compares, two merges and the max per vector, even when one operand is a
// constant that cannot be NaN (a ReLU's 0). Then the result is NaN exactly when
// the other operand is, so a NaN-ignoring maximum and one select of that operand
// give the same values (RVV's vfmax orders -0 below +0, as maximumf does): three
// vector ops instead of five. ReLU over 64x1024 at VLEN 256: 0.875 -> 0.625
// instructions per element.
//
//===----------------------------------------------------------------------===//

#include "mips-compiler/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace mips {
#define GEN_PASS_DEF_MIPSEXPANDCLAMPTOCONSTANT
#include "mips-compiler/Transforms/Passes.h.inc"
} // namespace mips
} // namespace mlir

using namespace mlir;

namespace {

/// Whether `value` is a float constant (scalar or splat) that is not NaN.
bool isNonNaNConstant(Value value) {
  FloatAttr scalar;
  if (matchPattern(value, m_Constant(&scalar)))
    return !scalar.getValue().isNaN();
  DenseFPElementsAttr splat;
  if (matchPattern(value, m_Constant(&splat)) && splat.isSplat())
    return !splat.getSplatValue<APFloat>().isNaN();
  return false;
}

template <typename NaNPropagating, typename NaNIgnoring>
struct ExpandWithConstant : OpRewritePattern<NaNPropagating> {
  using OpRewritePattern<NaNPropagating>::OpRewritePattern;

  LogicalResult matchAndRewrite(NaNPropagating op, PatternRewriter &rewriter) const override {
    Value x = op.getLhs(), c = op.getRhs();
    if (!isNonNaNConstant(c))
      std::swap(x, c);
    if (!isNonNaNConstant(c) || isNonNaNConstant(x))
      return rewriter.notifyMatchFailure(op, "no non-NaN constant operand");
    Location loc = op.getLoc();
    Value extreme = NaNIgnoring::create(rewriter, loc, x, c, op.getFastmathAttr());
    Value isNaN = arith::CmpFOp::create(rewriter, loc, arith::CmpFPredicate::UNO, x, x);
    rewriter.replaceOpWithNewOp<arith::SelectOp>(op, isNaN, x, extreme);
    return success();
  }
};

struct ExpandClampToConstant
    : mips::impl::MipsExpandClampToConstantBase<ExpandClampToConstant> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<ExpandWithConstant<arith::MaximumFOp, arith::MaxNumFOp>,
                 ExpandWithConstant<arith::MinimumFOp, arith::MinNumFOp>>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
