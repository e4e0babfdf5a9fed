// SPDX-License-Identifier: Apache-2.0
//===- VectorizeDepthwiseConv.cpp - depthwise convs as vector code -*- C++ -*-===//
//
// A depthwise convolution is not a matmul, and as loops LLVM vectorizes only its
// innermost channel loop, reloading the accumulator, the input and the weight for
// every multiply-add (eff 0.19 at VLEN 256). Here it becomes vector code along the
// channels: the kernel's weights stay in registers for a whole channel block, a
// few output pixels of a row accumulate in registers together, and each input
// vector is loaded once for all the (pixel, tap) pairs that read it.
//
//===----------------------------------------------------------------------===//

#include "mips-compiler/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <map>

namespace mlir {
namespace mips {
#define GEN_PASS_DEF_MIPSVECTORIZEDEPTHWISECONV
#include "mips-compiler/Transforms/Passes.h.inc"
} // namespace mips
} // namespace mlir

using namespace mlir;

namespace {

/// Output pixels of a row computed together: with 3x3 taps, 4 pixels need 18
/// input loads for 36 multiply-adds instead of 36, and 4 accumulators plus 9
/// weights fit in the 32 vector registers with room for the inputs.
constexpr int64_t kPixelsPerTile = 4;
/// Taps kept in registers; larger kernels stay loops rather than spill.
constexpr int64_t kMaxTaps = 25;

/// A depthwise convolution in NHWC with its channels contiguous everywhere.
struct Depthwise {
  Value input, filter, output; // (n, h, w, c), (kh, kw, c), (n, oh, ow, c)
  Value initialValue;          // the fill the output had just before, if any
  int64_t kh, kw, strideH, strideW, dilationH, dilationW;
};

/// `buffer` before any memref.cast (a function's dense copy casts its arguments
/// back to the general type for an unchanged body; not every op folds that).
Value beforeCasts(Value buffer) {
  while (auto cast = buffer.getDefiningOp<memref::CastOp>())
    buffer = cast.getSource();
  return buffer;
}

bool channelsContiguous(Value buffer) {
  auto type = cast<MemRefType>(buffer.getType());
  SmallVector<int64_t> strides;
  int64_t offset;
  return succeeded(type.getStridesAndOffset(strides, offset)) && strides.back() == 1;
}

/// Why `op` cannot become vector code whatever its buffers' layout, or nothing.
std::optional<StringRef> whyNotVectorizable(linalg::DepthwiseConv2DNhwcHwcOp op) {
  if (!llvm::all_of(op->getOperandTypes(), [](Type t) {
        return cast<ShapedType>(t).getElementType().isF32();
      }))
    return StringRef("only f32 depthwise convolutions become vector code");
  auto filter = cast<ShapedType>(op.getDpsInputOperand(1)->get().getType());
  if (filter.isDynamicDim(0) || filter.isDynamicDim(1))
    return StringRef("its kernel size is dynamic");
  int64_t taps = filter.getDimSize(0) * filter.getDimSize(1);
  if (taps == 0 || taps > kMaxTaps)
    return StringRef("its kernel is empty or larger than 5x5");
  return std::nullopt;
}

/// `op` as a Depthwise if it can become vector code as it stands.
std::optional<Depthwise> matchDepthwise(linalg::DepthwiseConv2DNhwcHwcOp op) {
  if (!op.hasPureBufferSemantics() || whyNotVectorizable(op))
    return std::nullopt;
  Depthwise conv;
  conv.input = beforeCasts(op.getDpsInputOperand(0)->get());
  conv.filter = beforeCasts(op.getDpsInputOperand(1)->get());
  conv.output = beforeCasts(op.getDpsInitOperand(0)->get());
  // The strided copy of a function (mips-specialize-dense-arguments) stays loops.
  if (!llvm::all_of(ValueRange{conv.input, conv.filter, conv.output}, channelsContiguous))
    return std::nullopt;
  auto filter = cast<MemRefType>(conv.filter.getType());
  conv.kh = filter.getDimSize(0);
  conv.kw = filter.getDimSize(1);
  auto strides = op.getStrides().getValues<int64_t>();
  auto dilations = op.getDilations().getValues<int64_t>();
  conv.strideH = strides[0];
  conv.strideW = strides[1];
  conv.dilationH = dilations[0];
  conv.dilationW = dilations[1];
  return conv;
}

/// The linalg.fill of `buffer` that is the last op with memory effects before
/// `op` in its block, if there is one.
linalg::FillOp fillJustBefore(Operation *op, Value buffer) {
  for (Operation *prev = op->getPrevNode(); prev; prev = prev->getPrevNode()) {
    if (isMemoryEffectFree(prev))
      continue;
    auto fill = dyn_cast<linalg::FillOp>(prev);
    if (fill && fill.hasPureBufferSemantics() && fill.getDpsInitOperand(0)->get() == buffer)
      return fill;
    return {};
  }
  return {};
}

class DepthwiseEmitter {
public:
  DepthwiseEmitter(OpBuilder &b, Location loc, const Depthwise &conv, int64_t lanes, bool scalable)
      : b(b), loc(loc), conv(conv),
        vectorType(VectorType::get({lanes}, b.getF32Type(), {scalable})),
        maskType(VectorType::get({lanes}, b.getI1Type(), {scalable})) {}

  void emit() {
    Value zero = index(0), one = index(1);
    Value batch = memref::DimOp::create(b, loc, conv.output, 0);
    Value rows = memref::DimOp::create(b, loc, conv.output, 1);
    Value channels = memref::DimOp::create(b, loc, conv.output, 3);
    Value lanes = index(vectorType.getDimSize(0));
    Value step = vectorType.isScalable()
                     ? arith::MulIOp::create(b, loc, vector::VectorScaleOp::create(b, loc), lanes)
                     : lanes;
    // Masked-off lanes are never stored: leaving them undefined spares RVV a copy
    // of the pass-through value before every masked load.
    padding = ub::PoisonOp::create(b, loc, vectorType);
    scf::ForOp::create(b, loc, zero, batch, one, {}, [&](OpBuilder &, Location, Value n, ValueRange) {
      scf::ForOp::create(
          b, loc, zero, channels, step, {}, [&](OpBuilder &, Location, Value c, ValueRange) {
            // The last block of channels is partial: masked, not a scalar remainder.
            Value left = arith::SubIOp::create(b, loc, channels, c);
            mask = vector::CreateMaskOp::create(b, loc, maskType, ValueRange{left});
            weights.clear();
            for (int64_t i = 0; i < conv.kh; ++i)
              for (int64_t j = 0; j < conv.kw; ++j)
                weights.push_back(load(conv.filter, {index(i), index(j), c}));
            scf::ForOp::create(b, loc, zero, rows, one, {},
                               [&](OpBuilder &, Location, Value row, ValueRange) {
                                 emitRow(n, row, c);
                                 scf::YieldOp::create(b, loc);
                               });
            scf::YieldOp::create(b, loc);
          });
      scf::YieldOp::create(b, loc);
    });
  }

private:
  Value index(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value load(Value buffer, ValueRange indices) {
    return vector::MaskedLoadOp::create(b, loc, vectorType, buffer, indices, mask, padding);
  }

  /// Whole tiles of pixels, then the pixels left one at a time.
  void emitRow(Value n, Value row, Value c) {
    Value columns = memref::DimOp::create(b, loc, conv.output, 2);
    Value tile = index(kPixelsPerTile);
    Value whole = arith::SubIOp::create(b, loc, columns,
                                        arith::RemUIOp::create(b, loc, columns, tile));
    scf::ForOp::create(b, loc, index(0), whole, tile, {},
                       [&](OpBuilder &, Location, Value column, ValueRange) {
                         emitPixels(n, row, column, c, kPixelsPerTile);
                         scf::YieldOp::create(b, loc);
                       });
    scf::ForOp::create(b, loc, whole, columns, index(1), {},
                       [&](OpBuilder &, Location, Value column, ValueRange) {
                         emitPixels(n, row, column, c, 1);
                         scf::YieldOp::create(b, loc);
                       });
  }

  /// `count` output pixels from `column` on: for each kernel row, each input
  /// vector is loaded once and feeds every (pixel, tap) that reads it. Each
  /// pixel's sum keeps linalg's order (kernel rows, then columns).
  void emitPixels(Value n, Value row, Value column, Value c, int64_t count) {
    SmallVector<Value> sums;
    for (int64_t p = 0; p < count; ++p)
      sums.push_back(
          conv.initialValue
              ? vector::BroadcastOp::create(b, loc, vectorType, conv.initialValue).getResult()
              : load(conv.output, {n, row, arith::AddIOp::create(b, loc, column, index(p)), c}));
    Value firstRow = arith::MulIOp::create(b, loc, row, index(conv.strideH));
    Value firstColumn = arith::MulIOp::create(b, loc, column, index(conv.strideW));
    for (int64_t i = 0; i < conv.kh; ++i) {
      Value inputRow = arith::AddIOp::create(b, loc, firstRow, index(i * conv.dilationH));
      // input column offset -> (pixel, tap column) pairs that read it, in order.
      std::map<int64_t, SmallVector<std::pair<int64_t, int64_t>>> readers;
      for (int64_t p = 0; p < count; ++p)
        for (int64_t j = 0; j < conv.kw; ++j)
          readers[p * conv.strideW + j * conv.dilationW].push_back({p, j});
      for (auto &[offset, uses] : readers) {
        Value inputColumn = arith::AddIOp::create(b, loc, firstColumn, index(offset));
        Value x = load(conv.input, {n, inputRow, inputColumn, c});
        for (auto [p, j] : uses)
          sums[p] = vector::FMAOp::create(b, loc, x, weights[i * conv.kw + j], sums[p]);
      }
    }
    for (int64_t p = 0; p < count; ++p)
      vector::MaskedStoreOp::create(
          b, loc, conv.output, ValueRange{n, row, arith::AddIOp::create(b, loc, column, index(p)), c},
          mask, sums[p]);
  }

  OpBuilder &b;
  Location loc;
  const Depthwise &conv;
  VectorType vectorType, maskType;
  Value padding, mask;
  SmallVector<Value> weights;
};

struct VectorizeDepthwiseConv
    : mips::impl::MipsVectorizeDepthwiseConvBase<VectorizeDepthwiseConv> {
  using MipsVectorizeDepthwiseConvBase::MipsVectorizeDepthwiseConvBase;

  void runOnOperation() override {
    if (lanes < 1) {
      getOperation()->emitError("mips-vectorize-depthwise-conv: lanes must be at least 1");
      return signalPassFailure();
    }
    SmallVector<linalg::DepthwiseConv2DNhwcHwcOp> convs;
    getOperation()->walk([&](linalg::DepthwiseConv2DNhwcHwcOp op) { convs.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (linalg::DepthwiseConv2DNhwcHwcOp op : convs) {
      std::optional<Depthwise> conv = matchDepthwise(op);
      if (!conv)
        continue;
      // The fill that zeroes the output just before is folded into the sums'
      // start: every output element is written once, so it is dead.
      if (linalg::FillOp fill = fillJustBefore(op, conv->output)) {
        conv->initialValue = fill.getDpsInputOperand(0)->get();
        rewriter.eraseOp(fill);
      }
      rewriter.setInsertionPoint(op);
      DepthwiseEmitter(rewriter, op.getLoc(), *conv, lanes, scalable).emit();
      rewriter.eraseOp(op);
    }
  }
};

} // namespace

std::optional<StringRef> mlir::mips::whyDepthwiseStaysLoops(Operation *op) {
  auto conv = dyn_cast<linalg::DepthwiseConv2DNhwcHwcOp>(op);
  if (!conv)
    return StringRef("only linalg.depthwise_conv_2d_nhwc_hwc becomes vector code");
  return whyNotVectorizable(conv);
}
