// SPDX-License-Identifier: Apache-2.0
//===- VectorCopies.cpp - contiguous runs copied with vectors ---*- C++ -*-===//

#include "mips-compiler/Utils/VectorCopies.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <algorithm>

using namespace mlir;

Value mlir::mips::copyRun(OpBuilder &b, Location loc, Value input, ValueRange from, Value patches,
              ValueRange to, int64_t length) {
  Type element = cast<RankedTensorType>(patches.getType()).getElementType();
  Value padding = arith::ConstantOp::create(b, loc, b.getZeroAttr(element));
  auto run = VectorType::get({length}, element);
  Value values =
      vector::TransferReadOp::create(b, loc, run, input, from, padding, ArrayRef<bool>{true});
  return vector::TransferWriteOp::create(b, loc, values, patches, to, ArrayRef<bool>{true})
      .getResult();
}

Value mlir::mips::copyRunsScalable(OpBuilder &rewriter, Location loc, Value source, Value patches,
                       ArrayRef<int64_t> outerBounds, int64_t innerBound, int64_t run,
                       int64_t scalableLanes, RunIndices from, RunIndices to) {
  auto index = [&](OpBuilder &b, int64_t value) -> Value {
    return arith::ConstantIndexOp::create(b, loc, value);
  };
  Type element = cast<RankedTensorType>(patches.getType()).getElementType();
  // Lanes count 32-bit elements: int8 patches move as many bytes.
  const int64_t lanes =
      std::max<int64_t>(1, scalableLanes * 32 / element.getIntOrFloatBitWidth());
  auto vectorType = VectorType::get({lanes}, element, /*scalableDims=*/{true});
  auto pairType = VectorType::get({2 * lanes}, element, /*scalableDims=*/{true});
  // Made once, outside every loop.
  Value padding = arith::ConstantOp::create(rewriter, loc, rewriter.getZeroAttr(element));
  Value step = arith::MulIOp::create(rewriter, loc, vector::VectorScaleOp::create(rewriter, loc),
                                     index(rewriter, lanes));
  Value runLength = index(rewriter, run);
  Value rest = arith::RemUIOp::create(rewriter, loc, runLength, step);
  Value whole = arith::SubIOp::create(rewriter, loc, runLength, rest);
  Value partial =
      arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ne, rest, index(rewriter, 0));
  auto maskOf = [&](VectorType type) -> Value {
    auto maskType = VectorType::get(type.getShape(), rewriter.getI1Type(), {true});
    return vector::CreateMaskOp::create(rewriter, loc, maskType, ValueRange{runLength});
  };
  Value overlapping =
      arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::uge, runLength, step);
  // One statement each: the order of the ops does not depend on the C++ compiler's
  // order of evaluating arguments.
  Value beyondOne =
      arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ugt, runLength, step);
  Value twoSteps = arith::AddIOp::create(rewriter, loc, step, step);
  Value withinTwo =
      arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ule, runLength, twoSteps);
  Value fitsPair = arith::AndIOp::create(rewriter, loc, beyondOne, withinTwo);
  Value lastVector = arith::SubIOp::create(rewriter, loc, runLength, step);

  SmallVector<Value> lbs(outerBounds.size(), index(rewriter, 0)), ubs,
      steps(outerBounds.size(), index(rewriter, 1));
  for (int64_t bound : outerBounds)
    ubs.push_back(index(rewriter, bound));
  // One vector of `type` (masked or not) at `at` of the run, for every inner point.
  auto inner = [&](OpBuilder &cb, Location cl, ValueRange outer, Value at, Value current,
                   VectorType type, Value withMask) -> Value {
    auto loop = scf::ForOp::create(
        cb, cl, index(cb, 0), index(cb, innerBound), index(cb, 1), ValueRange{current},
        [&](OpBuilder &ib, Location il, Value point, ValueRange iter) {
          // A masked read's lanes past the run are never stored: poison, not a copy
          // of the padding (which on RVV costs a register move and a vsetvli per read).
          Value fill = withMask ? ub::PoisonOp::create(ib, il, element).getResult() : padding;
          auto read = vector::TransferReadOp::create(ib, il, type, source,
                                                     from(ib, il, outer, point, at), fill,
                                                     ArrayRef<bool>{true});
          if (withMask)
            read.getMaskMutable().assign(withMask);
          auto write = vector::TransferWriteOp::create(ib, il, read.getResult(), iter[0],
                                                       to(ib, il, outer, point, at),
                                                       ArrayRef<bool>{true});
          if (withMask)
            write.getMaskMutable().assign(withMask);
          scf::YieldOp::create(ib, il, write.getResult());
        });
    return loop.getResult(0);
  };
  auto oneMasked = [&](VectorType type) {
    Value mask = maskOf(type);
    return [&, type, mask](OpBuilder &b, Location l, ValueRange outer,
                           ValueRange into) -> scf::ValueVector {
      return {inner(b, l, outer, index(b, 0), into[0], type, mask)};
    };
  };
  auto wholeVectors = [&](OpBuilder &b, Location l, ValueRange outer,
                          ValueRange into) -> scf::ValueVector {
    auto vectors = scf::ForOp::create(
        b, l, index(b, 0), whole, step, ValueRange{into[0]},
        [&](OpBuilder &vb, Location vl, Value at, ValueRange iter) {
          scf::YieldOp::create(vb, vl, inner(vb, vl, outer, at, iter[0], vectorType, Value()));
        });
    Value copied = vectors.getResult(0);
    auto last = scf::IfOp::create(
        b, l, partial,
        [&](OpBuilder &tb, Location tl) {
          scf::YieldOp::create(tb, tl,
                               inner(tb, tl, outer, lastVector, copied, vectorType, Value()));
        },
        [&](OpBuilder &eb, Location el) { scf::YieldOp::create(eb, el, copied); });
    return {last.getResult(0)};
  };
  auto nest = [&](OpBuilder &b, Location l, auto body) {
    scf::YieldOp::create(
        b, l, scf::buildLoopNest(b, l, lbs, ubs, steps, ValueRange{patches}, body).results[0]);
  };
  auto shortRun = oneMasked(vectorType), pairRun = oneMasked(pairType);
  auto version = scf::IfOp::create(
      rewriter, loc, overlapping,
      [&](OpBuilder &b, Location l) {
        auto longRun = scf::IfOp::create(
            b, l, fitsPair, [&](OpBuilder &pb, Location pl) { nest(pb, pl, pairRun); },
            [&](OpBuilder &wb, Location wl) { nest(wb, wl, wholeVectors); });
        scf::YieldOp::create(b, l, longRun.getResult(0));
      },
      [&](OpBuilder &b, Location l) { nest(b, l, shortRun); });
  return version.getResult(0);
}

