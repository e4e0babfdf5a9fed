// SPDX-License-Identifier: Apache-2.0
//===- ApproximateMath.cpp - polynomial math instead of libm ---*- C++ -*-===//
//
// A libm call per element costs tens of instructions and keeps its loop scalar;
// upstream's polynomial approximations are a few dozen arithmetic ops that
// vectorize. Functions without an approximation keep their libm call.
//
//===----------------------------------------------------------------------===//

#include "mips-compiler/Transforms/Passes.h"

#include "mlir/Conversion/MathToLibm/MathToLibm.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/STLExtras.h"

#include <cmath>

namespace mlir {
namespace mips {
#define GEN_PASS_DEF_MIPSAPPROXIMATEMATH
#include "mips-compiler/Transforms/Passes.h.inc"
} // namespace mips
} // namespace mlir

using namespace mlir;

namespace {

/// The functions rewritten, by op name (`math.erf`): those models use, whose
/// approximations tests/math/ measures within a few ulp over the whole float
/// range. Left to libm: sin and cos (upstream's range reduction fails for large
/// arguments, which rotary embeddings reach), atan (40 ulp), and the rest.
/// rsqrt is exact already (a square root and a divide, which vectorize).
bool isApproximated(StringRef name) {
  return llvm::is_contained({"math.exp", "math.expm1", "math.log", "math.log1p", "math.log2",
                             "math.tanh", "math.erf"},
                            name);
}

/// Upstream's log and log2 approximations read a subnormal input's exponent as if
/// it were normal (log(1e-45) comes out 2e6 ulp off). Scaling such inputs by 2^23
/// first, and taking 23 ln 2 (or 23) off the result, keeps them in range.
void scaleSubnormalLogInputs(Operation *root) {
  root->walk([](Operation *op) {
    if (!isa<math::LogOp, math::Log2Op>(op) || !getElementTypeOrSelf(op->getResultTypes()[0]).isF32())
      return;
    OpBuilder b(op);
    Location loc = op->getLoc();
    Type type = op->getResultTypes()[0];
    auto constant = [&](double value) -> Value {
      TypedAttr attr = b.getF32FloatAttr(static_cast<float>(value));
      if (auto shaped = dyn_cast<ShapedType>(type))
        attr = SplatElementsAttr::get(shaped, attr);
      return arith::ConstantOp::create(b, loc, type, attr);
    };
    Value x = op->getOperand(0);
    Value tiny = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT,
                                       math::AbsFOp::create(b, loc, x), constant(0x1p-126));
    Value scaled = arith::SelectOp::create(
        b, loc, tiny, arith::MulFOp::create(b, loc, x, constant(0x1p23)), x);
    op->setOperand(0, scaled);
    b.setInsertionPointAfter(op);
    const double offset = isa<math::LogOp>(op) ? 23 * std::log(2.0) : 23.0;
    Value correction = arith::SelectOp::create(b, loc, tiny, constant(offset), constant(0.0));
    Value result = op->getResult(0);
    auto corrected = arith::SubFOp::create(b, loc, result, correction);
    result.replaceAllUsesExcept(corrected, corrected);
  });
}

/// LLVM has no expm1 or log1p intrinsic, so upstream's MathToLLVM writes them as
/// exp(x) - 1 and log(1 + x), which lose every digit for tiny x. With libm
/// asked for, they become calls of expm1f and log1pf instead.
LogicalResult callLibmForExpm1AndLog1p(Operation *root) {
  SmallVector<Operation *> ops;
  root->walk([&](Operation *op) {
    if (isa<math::ExpM1Op, math::Log1pOp>(op))
      ops.push_back(op);
  });
  if (ops.empty())
    return success();
  RewritePatternSet patterns(root->getContext());
  populateMathToLibmConversionPatterns(patterns);
  // The new ops too: on vectors the patterns first split the op into scalar
  // expm1/log1p, which must become calls in turn.
  GreedyRewriteConfig config;
  config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps);
  return applyOpPatternsGreedily(ops, std::move(patterns), config);
}

struct ApproximateMath : mips::impl::MipsApproximateMathBase<ApproximateMath> {
  using MipsApproximateMathBase::MipsApproximateMathBase;

  void runOnOperation() override {
    if (precise) {
      if (failed(callLibmForExpm1AndLog1p(getOperation())))
        signalPassFailure();
      return;
    }
    // Other float types are widened to f32 first, so that their subnormal log
    // inputs (still subnormal in f32, for bf16) are scaled too.
    RewritePatternSet widen(&getContext());
    populateMathF32ExpansionPatterns(widen, isApproximated);
    if (failed(applyPatternsGreedily(getOperation(), std::move(widen))))
      return signalPassFailure();
    scaleSubnormalLogInputs(getOperation());
    RewritePatternSet patterns(&getContext());
    populateMathPolynomialApproximationPatterns(patterns, isApproximated);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
