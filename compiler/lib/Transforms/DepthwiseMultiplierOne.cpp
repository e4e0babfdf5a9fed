// SPDX-License-Identifier: Apache-2.0
//===- DepthwiseMultiplierOne.cpp - hwcm with multiplier 1 as hwc -*- C++ -*-===//
//
// The depthwise convolutions TOSA lowers to (channel multiplier 1) in the plain form
// that mips-vectorize-depthwise-conv writes as vector code.
//
//===----------------------------------------------------------------------===//

#include "mips-compiler/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace mips {
#define GEN_PASS_DEF_MIPSDEPTHWISEMULTIPLIERONE
#include "mips-compiler/Transforms/Passes.h.inc"
} // namespace mips
} // namespace mlir

using namespace mlir;

namespace {

/// A depthwise conv with a channel multiplier of 1 (what tosa.depthwise_conv2d
/// becomes) as the plain depthwise form, which mips-vectorize-depthwise-conv
/// writes as vector code: the filter's and output's unit dimension is dropped.
struct DepthwiseMultiplierOne : OpRewritePattern<linalg::DepthwiseConv2DNhwcHwcmOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::DepthwiseConv2DNhwcHwcmOp conv,
                                PatternRewriter &rewriter) const override {
    if (!conv.hasPureTensorSemantics())
      return failure();
    Value filter = conv.getDpsInputOperand(1)->get();
    auto filterType = cast<RankedTensorType>(filter.getType());
    if (filterType.getDimSize(3) != 1)
      return failure();
    Location loc = conv.getLoc();
    SmallVector<ReassociationIndices> lastTwo3 = {{0}, {1}, {2, 3}};
    SmallVector<ReassociationIndices> lastTwo4 = {{0}, {1}, {2}, {3, 4}};
    Value filter3 = tensor::CollapseShapeOp::create(rewriter, loc, filter, lastTwo3);
    Value init = tensor::CollapseShapeOp::create(rewriter, loc, conv.getDpsInitOperand(0)->get(),
                                                 lastTwo4);
    auto plain = linalg::DepthwiseConv2DNhwcHwcOp::create(
        rewriter, loc, TypeRange{init.getType()},
        ValueRange{conv.getDpsInputOperand(0)->get(), filter3}, ValueRange{init},
        conv.getStrides(), conv.getDilations());
    rewriter.replaceOpWithNewOp<tensor::ExpandShapeOp>(conv, conv.getResultTypes()[0],
                                                       plain.getResult(0), lastTwo4);
    return success();
  }
};

struct MipsDepthwiseMultiplierOnePass
    : mips::impl::MipsDepthwiseMultiplierOneBase<MipsDepthwiseMultiplierOnePass> {
  using Base::Base;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<DepthwiseMultiplierOne>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
