// SPDX-License-Identifier: Apache-2.0
//===- DropPaddingOnlyTaps.cpp - taps that read only zero padding -*- C++ -*-===//
//
// Convolutions over a zero-padded input lose the taps that read nothing but the
// padding, before convert-conv-to-matmul: what remains may be a 1x1 conv (a view).
//
//===----------------------------------------------------------------------===//

#include "mips-compiler/Transforms/Passes.h"

#include "mips-compiler/Conversion/ConvToMatmul/ConvToMatmul.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <array>
#include <type_traits>

namespace mlir {
namespace mips {
#define GEN_PASS_DEF_MIPSDROPPADDINGONLYTAPS
#include "mips-compiler/Transforms/Passes.h.inc"
} // namespace mips
} // namespace mlir

using namespace mlir;

namespace {

/// A convolution over a zero-padded input whose outer taps read only padding
/// (small images: a 3x3 kernel, padding 1, on a 1x1 input reads the input with
/// its centre tap alone) becomes the convolution of the taps that read the
/// input: its filter a slice of the filter, its input padded less. The dropped
/// terms are products with zero, so the result is the same unless a dropped
/// weight is Inf or NaN. ResNet-18's last stage on a 32x32 image does 1/9 of the
/// work, and its 1x1 result is a pointwise conv (a view, no im2col).
template <typename ConvOp>
struct DropPaddingOnlyTaps : OpRewritePattern<ConvOp> {
  DropPaddingOnlyTaps(MLIRContext *ctx, std::array<int64_t, 2> inputDims,
                      std::array<int64_t, 2> filterDims)
      : OpRewritePattern<ConvOp>(ctx, /*benefit=*/3), inputDims(inputDims),
        filterDims(filterDims) {}
  std::array<int64_t, 2> inputDims, filterDims; // the spatial dims (H, W)
  // FCHW: the taps are the filter's last dims, after its channels.
  bool tapsInnermost = std::is_same_v<ConvOp, linalg::Conv2DNchwFchwOp>;

  LogicalResult matchAndRewrite(ConvOp conv, PatternRewriter &rewriter) const override {
    if (!mips::isLibmipsConv(conv))
      return rewriter.notifyMatchFailure(conv, "not a static conv libmips runs");
    auto pad = conv.getDpsInputs()[0].template getDefiningOp<tensor::PadOp>();
    if (!pad || pad.getSource().getType().hasStaticShape() == false ||
        ShapedType::isDynamicShape(pad.getStaticLow()) ||
        ShapedType::isDynamicShape(pad.getStaticHigh()))
      return rewriter.notifyMatchFailure(conv, "input not a static tensor.pad");
    Value padValue = pad.getConstantPaddingValue();
    if (!padValue || !(matchPattern(padValue, m_AnyZeroFloat()) || matchPattern(padValue, m_Zero())))
      return rewriter.notifyMatchFailure(conv, "padding not a constant zero");
    ArrayRef<int64_t> low = pad.getStaticLow(), high = pad.getStaticHigh();
    auto source = cast<RankedTensorType>(pad.getSource().getType());
    for (int64_t d = 0; d < source.getRank(); ++d)
      if (d != inputDims[0] && d != inputDims[1] && (low[d] != 0 || high[d] != 0))
        return rewriter.notifyMatchFailure(conv, "padding outside the spatial dims");
    Value filter = conv.getDpsInputs()[1];
    auto filterType = cast<RankedTensorType>(filter.getType());
    auto outType = cast<RankedTensorType>(conv.getDpsInits()[0].getType());
    auto strides = llvm::to_vector(conv.getStrides().template getValues<int64_t>());
    auto dilations = llvm::to_vector(conv.getDilations().template getValues<int64_t>());

    std::array<std::pair<int64_t, int64_t>, 2> taps;
    bool drops = false;
    for (int i = 0; i < 2; ++i) {
      int64_t kernel = filterType.getDimSize(filterDims[i]);
      auto range = mips::tapsReadingInput(kernel, outType.getDimSize(inputDims[i]), strides[i],
                                          dilations[i], low[inputDims[i]],
                                          source.getDimSize(inputDims[i]));
      if (!range) // every product is with padding: the output is the init
        return rewriter.notifyMatchFailure(conv, "no tap reads the input");
      taps[i] = *range;
      drops |= range->first != 0 || range->second != kernel - 1;
    }
    if (!drops)
      return rewriter.notifyMatchFailure(conv, "every tap reads the input");
    // The kept filter must stay a view of the filter when the matmul flattens its
    // taps and channels: one tap always is; whole rows of taps are when the channels
    // follow the taps (HWCF, FHWC). Otherwise the slice would be copied on every call,
    // which costs more than the products it saves (ResNet-18's stride-2 3x3 conv on a
    // 2x2 image keeps 2x2 taps: 0.5 M floats copied against 0.7 M multiply-adds).
    bool oneTap = taps[0].first == taps[0].second && taps[1].first == taps[1].second;
    bool wholeRows = taps[1].first == 0 &&
                     taps[1].second == filterType.getDimSize(filterDims[1]) - 1;
    if (!oneTap && !(wholeRows && !tapsInnermost))
      return rewriter.notifyMatchFailure(conv, "the kept taps are not a view of the filter");

    Location loc = conv.getLoc();
    // The filter's taps [first, last] in each spatial dim (a view).
    SmallVector<OpFoldResult> fOffsets(filterType.getRank(), rewriter.getIndexAttr(0));
    SmallVector<OpFoldResult> fSizes, ones(filterType.getRank(), rewriter.getIndexAttr(1));
    for (int64_t d = 0; d < filterType.getRank(); ++d)
      fSizes.push_back(rewriter.getIndexAttr(filterType.getDimSize(d)));
    // The input window the kept taps read, in padded coordinates [begin, begin +
    // size): the source rows inside it, padded by what lies outside.
    SmallVector<OpFoldResult> sOffsets(source.getRank(), rewriter.getIndexAttr(0));
    SmallVector<OpFoldResult> sSizes, sOnes(source.getRank(), rewriter.getIndexAttr(1));
    for (int64_t d = 0; d < source.getRank(); ++d)
      sSizes.push_back(rewriter.getIndexAttr(source.getDimSize(d)));
    SmallVector<int64_t> newLow(source.getRank(), 0), newHigh(source.getRank(), 0);
    bool slicesSource = false;
    for (int i = 0; i < 2; ++i) {
      auto [first, last] = taps[i];
      int64_t kernel = last - first + 1;
      fOffsets[filterDims[i]] = rewriter.getIndexAttr(first);
      fSizes[filterDims[i]] = rewriter.getIndexAttr(kernel);
      int64_t d = inputDims[i];
      int64_t begin = first * dilations[i];
      int64_t size = (outType.getDimSize(d) - 1) * strides[i] + (kernel - 1) * dilations[i] + 1;
      int64_t dataBegin = std::max(low[d], begin);
      int64_t dataEnd = std::min(low[d] + source.getDimSize(d), begin + size);
      sOffsets[d] = rewriter.getIndexAttr(dataBegin - low[d]);
      sSizes[d] = rewriter.getIndexAttr(dataEnd - dataBegin);
      slicesSource |= dataBegin - low[d] != 0 || dataEnd - dataBegin != source.getDimSize(d);
      newLow[d] = dataBegin - begin;
      newHigh[d] = begin + size - dataEnd;
    }
    Value newFilter;
    if (oneTap) {
      // One tap: the filter's channels at it, as a 2-D view (a rank-reducing slice;
      // collapsing a 4-D slice would copy it), expanded back to the conv's 1x1 form,
      // which the pointwise rewrite collapses again into this view.
      SmallVector<int64_t> channels;
      SmallVector<ReassociationIndices> groups;
      for (int64_t d = 0; d < filterType.getRank(); ++d)
        if (d != filterDims[0] && d != filterDims[1])
          channels.push_back(filterType.getDimSize(d));
      auto viewType = RankedTensorType::get(channels, filterType.getElementType());
      Value view = tensor::ExtractSliceOp::create(rewriter, loc, viewType, filter, fOffsets,
                                                  fSizes, ones);
      // Each unit tap dim joins the next channel dim (the last one when none follows).
      ReassociationIndices pending;
      for (int64_t d = 0; d < filterType.getRank(); ++d) {
        pending.push_back(d);
        if (d != filterDims[0] && d != filterDims[1]) {
          groups.push_back(pending);
          pending.clear();
        }
      }
      groups.back().append(pending.begin(), pending.end());
      auto oneTap = filterType.clone(
          llvm::to_vector(llvm::map_range(fSizes, [](OpFoldResult size) {
            return *getConstantIntValue(size);
          })));
      newFilter = tensor::ExpandShapeOp::create(rewriter, loc, oneTap, view, groups);
    } else {
      newFilter = tensor::ExtractSliceOp::create(rewriter, loc, filter, fOffsets, fSizes, ones);
    }
    Value input = pad.getSource();
    if (slicesSource)
      input = tensor::ExtractSliceOp::create(rewriter, loc, input, sOffsets, sSizes, sOnes);
    if (llvm::any_of(newLow, [](int64_t v) { return v != 0; }) ||
        llvm::any_of(newHigh, [](int64_t v) { return v != 0; })) {
      SmallVector<OpFoldResult> lowOfr, highOfr;
      for (int64_t d = 0; d < source.getRank(); ++d) {
        lowOfr.push_back(rewriter.getIndexAttr(newLow[d]));
        highOfr.push_back(rewriter.getIndexAttr(newHigh[d]));
      }
      // A new zero: the old pad's value may be defined inside its region (the greedy
      // driver hoists such constants today; this does not rely on it).
      Value zero = arith::ConstantOp::create(
          rewriter, loc, rewriter.getZeroAttr(source.getElementType()));
      input = tensor::PadOp::create(rewriter, loc, Type(), input, lowOfr, highOfr, zero);
    }
    SmallVector<Value> operands = {input, newFilter, conv.getDpsInits()[0]};
    Operation *smaller = mlir::clone(rewriter, conv, conv->getResultTypes(), operands);
    rewriter.replaceOp(conv, smaller->getResults());
    return success();
  }
};

struct MipsDropPaddingOnlyTapsPass
    : mips::impl::MipsDropPaddingOnlyTapsBase<MipsDropPaddingOnlyTapsPass> {
  using Base::Base;

  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    RewritePatternSet patterns(ctx);
    // The spatial dims (H, W) of each layout's input and filter.
    patterns.add<DropPaddingOnlyTaps<linalg::Conv2DNchwFchwOp>>(ctx, std::array<int64_t, 2>{2, 3},
                                                                std::array<int64_t, 2>{2, 3});
    patterns.add<DropPaddingOnlyTaps<linalg::Conv2DNhwcHwcfOp>>(ctx, std::array<int64_t, 2>{1, 2},
                                                                std::array<int64_t, 2>{0, 1});
    patterns.add<DropPaddingOnlyTaps<linalg::Conv2DNhwcFhwcOp>>(ctx, std::array<int64_t, 2>{1, 2},
                                                                std::array<int64_t, 2>{1, 2});
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
