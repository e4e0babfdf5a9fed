// SPDX-License-Identifier: Apache-2.0
//===- FlattenDepthwiseNchw.cpp - NCHW depthwise convs over whole planes -*- C++ -*-===//
//
// In NCHW a depthwise convolution's image rows are short (MobileNetV2 on a 32x32
// input works on rows of 16 down to 1 pixel), so its loops, vectorized along a
// row, run mostly scalar remainders. Flattened, a channel's padded plane is one
// long row: output position g of the plane reads input g + kh*W + kw for tap
// (kh, kw), so one loop over H*W positions with nine unit-stride loads and
// fused multiply-adds per vector computes every output of the channel. The
// positions whose window wraps into the next image row are computed too and never
// read: the result is a strided view of the computed plane. Stride 2 computes the
// stride-1 plane and views every second row and column (four times the work, but
// no strided loads, which cost a load per element).
//
//===----------------------------------------------------------------------===//

#include "mips-compiler/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
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
    return StringRef("its kernel is empty or larger than 5x5");
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

/// The padded input with room after its last row for the windows that wrap:
/// the pad that made it, grown, or a new one.
Value inputWithSpareRows(OpBuilder &b, Location loc, Value input, int64_t spareRows) {
  if (spareRows == 0)
    return input;
  auto type = cast<RankedTensorType>(input.getType());
  SmallVector<int64_t> shape(type.getShape());
  shape[2] += spareRows;
  auto grownType = RankedTensorType::get(shape, type.getElementType());
  auto pad = input.getDefiningOp<tensor::PadOp>();
  if (pad && pad->hasOneUse() && pad.getConstantPaddingValue()) {
    SmallVector<OpFoldResult> high = pad.getMixedHighPad();
    if (std::optional<int64_t> below = getConstantIntValue(high[2])) {
      high[2] = b.getIndexAttr(*below + spareRows);
      b.setInsertionPoint(pad);
      return tensor::PadOp::create(b, loc, grownType, pad.getSource(), pad.getMixedLowPad(), high,
                                   pad.getConstantPaddingValue(), pad.getNofold())
          .getResult();
    }
  }
  Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0f));
  SmallVector<OpFoldResult> low(4, b.getIndexAttr(0)), high(4, b.getIndexAttr(0));
  high[2] = b.getIndexAttr(spareRows);
  return tensor::PadOp::create(b, loc, grownType, input, low, high, zero).getResult();
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
  int64_t h = inputType.getDimSize(2), w = inputType.getDimSize(3);
  int64_t kh = filterType.getDimSize(1), kw = filterType.getDimSize(2);
  int64_t oh = outType.getDimSize(2);
  auto strides = op.getStrides().getValues<int64_t>();
  auto dilations = op.getDilations().getValues<int64_t>();
  int64_t strideH = strides[0], strideW = strides[1];
  int64_t dilationH = dilations[0], dilationW = dilations[1];

  // Stride-1 rows computed, and the elements the last position's window reads
  // past the input (its wrapped columns): whole spare rows.
  int64_t rows = (oh - 1) * strideH + 1;
  int64_t overrun = (rows + (kh - 1) * dilationH) * w + (kw - 1) * dilationW - h * w;
  int64_t spareRows = overrun > 0 ? (overrun + w - 1) / w : 0;

  rewriter.setInsertionPoint(op);
  Value padded = inputWithSpareRows(rewriter, loc, input, spareRows);
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
  for (int64_t i = 0; i < kh; ++i)
    for (int64_t j = 0; j < kw; ++j) {
      SmallVector<OpFoldResult> offsets = {rewriter.getIndexAttr(0), rewriter.getIndexAttr(0),
                                           rewriter.getIndexAttr(i * dilationH * w + j * dilationW)};
      SmallVector<OpFoldResult> sizes = {rewriter.getIndexAttr(n), rewriter.getIndexAttr(c),
                                         rewriter.getIndexAttr(rows * w)};
      SmallVector<OpFoldResult> unit(3, rewriter.getIndexAttr(1));
      inputs.push_back(
          tensor::ExtractSliceOp::create(rewriter, loc, viewType, flat, offsets, sizes, unit));
      maps.push_back(identity);
    }
  for (int64_t i = 0; i < kh; ++i)
    for (int64_t j = 0; j < kw; ++j) {
      inputs.push_back(filter);
      maps.push_back(AffineMap::get(
          3, 0, {getAffineDimExpr(1, ctx), getAffineConstantExpr(i, ctx), getAffineConstantExpr(j, ctx)}, ctx));
    }
  maps.push_back(identity);
  int64_t taps = kh * kw;
  SmallVector<utils::IteratorType> parallel(3, utils::IteratorType::parallel);
  auto sums = linalg::GenericOp::create(
      rewriter, loc, plane.getType(), inputs, plane, maps, parallel,
      [taps](OpBuilder &b, Location bodyLoc, ValueRange args) {
        Value sum = args[2 * taps];
        for (int64_t t = 0; t < taps; ++t)
          sum = math::FmaOp::create(b, bodyLoc, args[t], args[taps + t], sum);
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
