// SPDX-License-Identifier: Apache-2.0
//===- FlattenDepthwiseNchw.cpp - NCHW depthwise convs over whole planes -*- C++ -*-===//
//
// In NCHW a depthwise convolution's image rows are short (MobileNetV2 on a 32x32
// input works on rows of 16 down to 1 pixel), so its loops, vectorized along a
// row, run mostly scalar remainders. Flattened, a channel's padded plane is one
// long row: output position g of the plane reads input g + kh*W + kw for tap
// (kh, kw), so one loop over H*W positions with nine unit-stride loads and
// multiply-adds per vector computes every output of the channel. The
// positions whose window wraps into the next image row are computed too and never
// read: the result is a strided view of the computed plane. Stride 2 computes the
// stride-1 plane and views every second row and column (four times the work, but
// no strided loads, which cost a load per element). Taps that read only zero
// padding are dropped (a 3x3 kernel on a 1x1 image is its centre tap).
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

namespace mlir {
namespace mips {
#define GEN_PASS_DEF_MIPSFLATTENDEPTHWISENCHW
#include "mips-compiler/Transforms/Passes.h.inc"
} // namespace mips
} // namespace mlir

using namespace mlir;

namespace {

/// Strides past this compute too many positions that are never read.
constexpr int64_t kMaxStride = 2;
/// Taps, one load and one multiply-add each per vector; larger kernels stay loops.
constexpr int64_t kMaxTaps = 25;

std::optional<StringRef> whyNotFlattenable(linalg::DepthwiseConv2DNchwChwOp op) {
  if (!op.hasPureTensorSemantics())
    return StringRef("only depthwise convolutions on tensors are flattened");
  if (!llvm::all_of(op->getOperandTypes(), [](Type t) {
        auto shaped = cast<ShapedType>(t);
        return shaped.getElementType().isF32() && shaped.hasStaticShape();
      }))
    return StringRef("only f32 depthwise convolutions of static shape become vector code");
  auto filter = cast<ShapedType>(op.getDpsInputOperand(1)->get().getType());
  int64_t taps = filter.getDimSize(1) * filter.getDimSize(2);
  if (taps == 0 || taps > kMaxTaps)
    return StringRef("its kernel is empty or has more than 25 taps");
  for (int64_t stride : op.getStrides().getValues<int64_t>())
    if (stride > kMaxStride)
      return StringRef("its stride is larger than 2");
  return std::nullopt;
}

/// `init` (N, C, OH, OW) placed on the computed plane (N, C, R * W), where output
/// (oh, ow) is position (oh * strideH) * W + ow * strideW. A fill or a broadcast
/// bias is made again at the plane's shape; anything else is copied into place.
Value initOnPlane(OpBuilder &b, Location loc, Value init, int64_t rows, int64_t width,
                  int64_t strideH, int64_t strideW) {
  auto type = cast<RankedTensorType>(init.getType());
  int64_t n = type.getDimSize(0), c = type.getDimSize(1);
  auto planeType = RankedTensorType::get({n, c, rows * width}, type.getElementType());
  Value empty = tensor::EmptyOp::create(b, loc, planeType.getShape(), type.getElementType());
  if (auto fill = init.getDefiningOp<linalg::FillOp>())
    return linalg::FillOp::create(b, loc, fill.getDpsInputOperand(0)->get(), empty).getResult(0);
  if (auto broadcast = init.getDefiningOp<linalg::GenericOp>()) {
    // out(n, c, h, w) = bias(c), nothing else in the body.
    MLIRContext *ctx = b.getContext();
    AffineMap channel = AffineMap::get(4, 0, getAffineDimExpr(1, ctx));
    Block &body = broadcast.getRegion().front();
    auto yield = cast<linalg::YieldOp>(body.getTerminator());
    if (broadcast.getNumDpsInputs() == 1 && broadcast.getNumDpsInits() == 1 &&
        broadcast.getNumLoops() == 4 &&
        broadcast.getNumParallelLoops() == 4 &&
        broadcast.getIndexingMapsArray()[0] == channel &&
        broadcast.getIndexingMapsArray()[1].isIdentity() && body.getOperations().size() == 1 &&
        yield.getOperand(0) == body.getArgument(0)) {
      AffineMap planeChannel = AffineMap::get(3, 0, getAffineDimExpr(1, ctx));
      AffineMap identity = AffineMap::getMultiDimIdentityMap(3, ctx);
      SmallVector<utils::IteratorType> parallel(3, utils::IteratorType::parallel);
      auto generic = linalg::GenericOp::create(
          b, loc, planeType, broadcast.getDpsInputOperand(0)->get(), empty,
          ArrayRef<AffineMap>{planeChannel, identity}, parallel,
          [](OpBuilder &nested, Location nestedLoc, ValueRange args) {
            linalg::YieldOp::create(nested, nestedLoc, args[0]);
          });
      return generic.getResult(0);
    }
  }
  // The general case: the output positions of the plane hold the init.
  auto gridType = RankedTensorType::get({n, c, rows, width}, type.getElementType());
  Value grid = tensor::ExpandShapeOp::create(b, loc, gridType, empty,
                                             ArrayRef<ReassociationIndices>{{0}, {1}, {2, 3}});
  SmallVector<OpFoldResult> zeros(4, b.getIndexAttr(0)), ones(4, b.getIndexAttr(1));
  SmallVector<OpFoldResult> sizes, strides = ones;
  for (int64_t d : type.getShape())
    sizes.push_back(b.getIndexAttr(d));
  strides[2] = b.getIndexAttr(strideH);
  strides[3] = b.getIndexAttr(strideW);
  Value placed = tensor::InsertSliceOp::create(b, loc, init, grid, zeros, sizes, strides);
  return tensor::CollapseShapeOp::create(b, loc, planeType, placed,
                                         ArrayRef<ReassociationIndices>{{0}, {1}, {2, 3}});
}

/// The taps [first, last] of one spatial dim that read the image for some output
/// position, and the padding the image then needs before and after it.
struct KeptTaps {
  int64_t first, last, low, high;
};

/// Along one spatial dim of a conv whose input is `image` padded by (low, high):
/// the taps that read the image. Taps that only ever read the padding are dropped
/// when it is zero (their products are zero unless the weight is Inf or NaN, as
/// convert-conv-to-matmul also assumes): a 3x3 kernel on a 1x1 image keeps its
/// centre tap. Everything is kept when no tap reads the image, or when the first tap
/// kept would need padding of its own before the image.
KeptTaps keptTaps(int64_t image, int64_t low, int64_t high, int64_t kernel, int64_t outputs,
                  int64_t stride, int64_t dilation, bool zeroPadding) {
  KeptTaps all = {0, kernel - 1, low, high};
  if (!zeroPadding)
    return all;
  std::optional<std::pair<int64_t, int64_t>> taps =
      mips::tapsReadingInput(kernel, outputs, stride, dilation, low, image);
  if (!taps || low - taps->first * dilation < 0)
    return all;
  auto [first, last] = *taps;
  KeptTaps kept = {first, last, low - first * dilation, 0};
  int64_t extent = (outputs - 1) * stride + (last - first) * dilation + 1;
  kept.high = std::max<int64_t>(0, extent - kept.low - image);
  return kept;
}

void flatten(IRRewriter &rewriter, linalg::DepthwiseConv2DNchwChwOp op) {
  Location loc = op.getLoc();
  MLIRContext *ctx = rewriter.getContext();
  Value input = op.getDpsInputOperand(0)->get();
  Value filter = op.getDpsInputOperand(1)->get();
  Value init = op.getDpsInitOperand(0)->get();
  auto inputType = cast<RankedTensorType>(input.getType());
  auto filterType = cast<RankedTensorType>(filter.getType());
  auto outType = cast<RankedTensorType>(init.getType());
  int64_t n = inputType.getDimSize(0), c = inputType.getDimSize(1);
  int64_t kh = filterType.getDimSize(1), kw = filterType.getDimSize(2);
  int64_t oh = outType.getDimSize(2), ow = outType.getDimSize(3);
  auto strides = op.getStrides().getValues<int64_t>();
  auto dilations = op.getDilations().getValues<int64_t>();
  int64_t strideH = strides[0], strideW = strides[1];
  int64_t dilationH = dilations[0], dilationW = dilations[1];

  // The image and its padding: a tensor.pad's source (made again with the padding
  // the kept taps need), or the input itself with none.
  Value image = input;
  SmallVector<int64_t> low(4, 0), high(4, 0);
  Value padValue;
  auto pad = input.getDefiningOp<tensor::PadOp>();
  // A padding constant defined inside the pad's body would go with the pad.
  if (pad && pad->hasOneUse() && pad.getConstantPaddingValue() &&
      pad.getConstantPaddingValue().getParentRegion() != &pad.getRegion() &&
      !ShapedType::isDynamicShape(pad.getStaticLow()) &&
      !ShapedType::isDynamicShape(pad.getStaticHigh()) && pad.getStaticLow()[0] == 0 &&
      pad.getStaticLow()[1] == 0 && pad.getStaticHigh()[0] == 0 && pad.getStaticHigh()[1] == 0) {
    image = pad.getSource();
    low.assign(pad.getStaticLow().begin(), pad.getStaticLow().end());
    high.assign(pad.getStaticHigh().begin(), pad.getStaticHigh().end());
    padValue = pad.getConstantPaddingValue();
  }
  bool zeroPadding = padValue && matchPattern(padValue, m_AnyZeroFloat());
  auto imageType = cast<RankedTensorType>(image.getType());
  KeptTaps tapsH = keptTaps(imageType.getDimSize(2), low[2], high[2], kh, oh, strideH,
                            dilationH, zeroPadding);
  KeptTaps tapsW = keptTaps(imageType.getDimSize(3), low[3], high[3], kw, ow, strideW,
                            dilationW, zeroPadding);
  int64_t h = tapsH.low + imageType.getDimSize(2) + tapsH.high;
  int64_t w = tapsW.low + imageType.getDimSize(3) + tapsW.high;
  int64_t keptH = tapsH.last - tapsH.first + 1, keptW = tapsW.last - tapsW.first + 1;

  // Stride-1 rows computed, and the elements the last position's window reads
  // past the input (its wrapped columns): whole spare rows.
  int64_t rows = (oh - 1) * strideH + 1;
  int64_t overrun = (rows + (keptH - 1) * dilationH) * w + (keptW - 1) * dilationW - h * w;
  int64_t spareRows = overrun > 0 ? (overrun + w - 1) / w : 0;

  Value padded = image;
  if (image != input || spareRows > 0) {
    if (!padValue) {
      rewriter.setInsertionPoint(op);
      padValue = arith::ConstantOp::create(rewriter, loc, rewriter.getF32FloatAttr(0.0f));
    } else {
      rewriter.setInsertionPoint(pad);
    }
    auto paddedType = RankedTensorType::get({n, c, h + spareRows, w}, inputType.getElementType());
    auto index = [&](int64_t v) -> OpFoldResult { return rewriter.getIndexAttr(v); };
    SmallVector<OpFoldResult> newLow = {index(0), index(0), index(tapsH.low), index(tapsW.low)};
    SmallVector<OpFoldResult> newHigh = {index(0), index(0), index(tapsH.high + spareRows),
                                         index(tapsW.high)};
    padded = tensor::PadOp::create(rewriter, loc, paddedType, image, newLow, newHigh, padValue,
                                   pad ? pad.getNofold() : false)
                 .getResult();
  }
  rewriter.setInsertionPoint(op);
  int64_t flatSize = (h + spareRows) * w;
  auto flatType = RankedTensorType::get({n, c, flatSize}, inputType.getElementType());
  Value flat = tensor::CollapseShapeOp::create(rewriter, loc, flatType, padded,
                                               ArrayRef<ReassociationIndices>{{0}, {1}, {2, 3}});
  Value plane = initOnPlane(rewriter, loc, init, rows, w, strideH, strideW);

  // One input view and one weight operand per tap, in linalg's summation order
  // (views, not index offsets in the maps: linalg infers the loop range from the
  // first input).
  auto viewType = RankedTensorType::get({n, c, rows * w}, inputType.getElementType());
  AffineMap identity = AffineMap::getMultiDimIdentityMap(3, ctx);
  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  for (int64_t i = tapsH.first; i <= tapsH.last; ++i)
    for (int64_t j = tapsW.first; j <= tapsW.last; ++j) {
      int64_t offset = (i - tapsH.first) * dilationH * w + (j - tapsW.first) * dilationW;
      SmallVector<OpFoldResult> offsets = {rewriter.getIndexAttr(0), rewriter.getIndexAttr(0),
                                           rewriter.getIndexAttr(offset)};
      SmallVector<OpFoldResult> sizes = {rewriter.getIndexAttr(n), rewriter.getIndexAttr(c),
                                         rewriter.getIndexAttr(rows * w)};
      SmallVector<OpFoldResult> unit(3, rewriter.getIndexAttr(1));
      inputs.push_back(
          tensor::ExtractSliceOp::create(rewriter, loc, viewType, flat, offsets, sizes, unit));
      maps.push_back(identity);
    }
  for (int64_t i = tapsH.first; i <= tapsH.last; ++i)
    for (int64_t j = tapsW.first; j <= tapsW.last; ++j) {
      inputs.push_back(filter);
      maps.push_back(AffineMap::get(
          3, 0, {getAffineDimExpr(1, ctx), getAffineConstantExpr(i, ctx), getAffineConstantExpr(j, ctx)}, ctx));
    }
  maps.push_back(identity);
  int64_t taps = keptH * keptW;
  SmallVector<utils::IteratorType> parallel(3, utils::IteratorType::parallel);
  auto sums = linalg::GenericOp::create(
      rewriter, loc, plane.getType(), inputs, plane, maps, parallel,
      [taps](OpBuilder &b, Location bodyLoc, ValueRange args) {
        // linalg's multiply then add, which LLVM may fuse (vfmacc on RVV; a fused
        // multiply-add would be a libm call on targets without one).
        auto contract = arith::FastMathFlagsAttr::get(b.getContext(), arith::FastMathFlags::contract);
        Value sum = args[2 * taps];
        for (int64_t t = 0; t < taps; ++t) {
          Value product = arith::MulFOp::create(b, bodyLoc, args[t], args[taps + t], contract);
          sum = arith::AddFOp::create(b, bodyLoc, sum, product, contract);
        }
        linalg::YieldOp::create(b, bodyLoc, sum);
      });

  auto gridType = RankedTensorType::get({n, c, rows, w}, outType.getElementType());
  Value grid = tensor::ExpandShapeOp::create(rewriter, loc, gridType, sums.getResult(0),
                                             ArrayRef<ReassociationIndices>{{0}, {1}, {2, 3}});
  SmallVector<OpFoldResult> zeros(4, rewriter.getIndexAttr(0)), sizes,
      steps(4, rewriter.getIndexAttr(1));
  for (int64_t d : outType.getShape())
    sizes.push_back(rewriter.getIndexAttr(d));
  steps[2] = rewriter.getIndexAttr(strideH);
  steps[3] = rewriter.getIndexAttr(strideW);
  Value result =
      tensor::ExtractSliceOp::create(rewriter, loc, outType, grid, zeros, sizes, steps);
  rewriter.replaceOp(op, result);
}

struct FlattenDepthwiseNchw
    : mips::impl::MipsFlattenDepthwiseNchwBase<FlattenDepthwiseNchw> {
  void runOnOperation() override {
    SmallVector<linalg::DepthwiseConv2DNchwChwOp> convs;
    getOperation()->walk([&](linalg::DepthwiseConv2DNchwChwOp op) {
      if (!whyNotFlattenable(op))
        convs.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::DepthwiseConv2DNchwChwOp op : convs) {
      tensor::PadOp pad = op.getDpsInputOperand(0)->get().getDefiningOp<tensor::PadOp>();
      flatten(rewriter, op);
      if (pad && pad->use_empty())
        rewriter.eraseOp(pad);
    }
  }
};

} // namespace

std::optional<StringRef> mlir::mips::whyDepthwiseNchwStaysLoops(Operation *op) {
  auto conv = dyn_cast<linalg::DepthwiseConv2DNchwChwOp>(op);
  if (!conv)
    return StringRef("only linalg.depthwise_conv_2d_nchw_chw is flattened");
  return whyNotFlattenable(conv);
}
