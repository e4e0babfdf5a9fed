// SPDX-License-Identifier: Apache-2.0
//===- VectorizeRowReductions.cpp - row sums and maxima as vector code -*- C++ -*-===//
//
// A reduction along a contiguous row (softmax's max and sum, layernorm's sums) is
// left by LLVM's loop vectorizer to fixed-width vectors sized for the smallest
// VLEN (LMUL 2 for 8 floats at every VLEN) and, for a NaN-propagating maximum, a
// compare and two merges per vector: softmax's row maximum cost 1.7 instructions
// per element at VLEN 256 and at 1024 alike. Here it becomes scalable vector code:
// whole vectors unmasked, a masked tail where the VLEN leaves one, a sum in order
// (an ordered reduction per vector, as the IR asks) and a maximum as a NaN-ignoring
// vector maximum plus lane sums, which turn NaN once a NaN is added (the row is
// then looked at again), so the result is still NaN when the row holds one.
// A row sum of what an elementwise op has just written (softmax's exponentials)
// is computed as that op writes each vector, so the row is not read back.
//
//===----------------------------------------------------------------------===//

#include "mips-compiler/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

#include <limits>

namespace mlir {
namespace mips {
#define GEN_PASS_DEF_MIPSVECTORIZEROWREDUCTIONS
#include "mips-compiler/Transforms/Passes.h.inc"
} // namespace mips
} // namespace mlir

using namespace mlir;

namespace {

enum class Combiner { Sum, Max, Min };

/// A reduction of `input`'s last, contiguous dimension into `output`.
struct RowReduction {
  Value input, output;
  Combiner combiner;
};

/// `buffer` before any memref.cast (a function's dense copy casts its arguments
/// back to the general type for an unchanged body; not every op folds that).
Value beforeCasts(Value buffer) {
  while (auto cast = buffer.getDefiningOp<memref::CastOp>())
    buffer = cast.getSource();
  return buffer;
}

bool lastDimContiguous(Value buffer) {
  auto type = cast<MemRefType>(buffer.getType());
  SmallVector<int64_t> strides;
  int64_t offset;
  return succeeded(type.getStridesAndOffset(strides, offset)) && strides.back() == 1;
}

/// A linalg.generic or linalg.reduce on buffers that reduces the last dimension
/// of its one input into its one output, with a single combiner as its body.
std::optional<RowReduction> matchRowReduction(linalg::LinalgOp op) {
  if (!isa<linalg::GenericOp, linalg::ReduceOp>(op) || !op.hasPureBufferSemantics() ||
      op.getNumDpsInputs() != 1 || op.getNumDpsInits() != 1)
    return std::nullopt;
  int64_t rank = op.getNumLoops();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  if (rank < 1 || iterators.back() != utils::IteratorType::reduction ||
      llvm::count(iterators, utils::IteratorType::reduction) != 1)
    return std::nullopt;
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  if (!maps[0].isIdentity() ||
      maps[1] != AffineMap::getMultiDimIdentityMap(rank, op.getContext()).dropResult(rank - 1))
    return std::nullopt;
  RowReduction reduction;
  reduction.input = beforeCasts(op.getDpsInputOperand(0)->get());
  reduction.output = beforeCasts(op.getDpsInitOperand(0)->get());
  if (!getElementTypeOrSelf(reduction.input).isF32() ||
      !getElementTypeOrSelf(reduction.output).isF32() || !lastDimContiguous(reduction.input))
    return std::nullopt;
  // The body: one combiner of the element and the accumulator, yielded.
  Block &body = op->getRegion(0).front();
  if (body.getOperations().size() != 2)
    return std::nullopt;
  Operation *combiner = &body.front();
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  if (combiner->getNumOperands() != 2 || yield.getValues().size() != 1 ||
      yield.getValues()[0] != combiner->getResult(0))
    return std::nullopt;
  Value element = body.getArgument(0), accumulator = body.getArgument(1);
  if (!((combiner->getOperand(0) == element && combiner->getOperand(1) == accumulator) ||
        (combiner->getOperand(0) == accumulator && combiner->getOperand(1) == element)))
    return std::nullopt;
  if (isa<arith::AddFOp>(combiner))
    reduction.combiner = Combiner::Sum;
  else if (isa<arith::MaximumFOp>(combiner))
    reduction.combiner = Combiner::Max;
  else if (isa<arith::MinimumFOp>(combiner))
    reduction.combiner = Combiner::Min;
  else
    return std::nullopt;
  // Fast-math flags would allow more; without them these are exact rewrites.
  if (auto fmf = dyn_cast<arith::ArithFastMathInterface>(combiner))
    if (fmf.getFastMathFlagsAttr().getValue() != arith::FastMathFlags::none)
      return std::nullopt;
  return reduction;
}

/// The buffer `buffer` is a view of: the value past every view-like op.
Value rootOf(Value buffer) {
  while (auto view = buffer.getDefiningOp<ViewLikeOpInterface>())
    buffer = view.getViewSource();
  return buffer;
}

bool isFreshBuffer(Value buffer) {
  return buffer.getDefiningOp<memref::AllocOp>() || buffer.getDefiningOp<memref::AllocaOp>();
}

/// Ops the fused body may hold: f32 arithmetic and compares, selects, constants,
/// and the math functions that become vector code (polynomials or an RVV
/// instruction); integer division, for one, could trap in masked-off lanes.
bool isFusableBodyOp(Operation &op) {
  if (isa<arith::AddFOp, arith::SubFOp, arith::MulFOp, arith::DivFOp, arith::NegFOp,
          arith::MaximumFOp, arith::MinimumFOp, arith::MaxNumFOp, arith::MinNumFOp,
          arith::CmpFOp, arith::SelectOp, arith::ConstantOp>(op))
    return true;
  return isa<math::ExpOp, math::ExpM1Op, math::LogOp, math::Log1pOp, math::Log2Op,
             math::TanhOp, math::ErfOp, math::FmaOp, math::AbsFOp, math::SqrtOp>(op);
}

/// An elementwise linalg.generic on buffers whose result a row sum then reads:
/// every iterator parallel, its output `reduction.input` written through the
/// identity, each input f32 and read through the identity (last dimension
/// contiguous) or once per row (the map without the last dimension), and a body of
/// f32 arith and math ops (isFusableBodyOp) that does not read the output. Its
/// output and the sum's are fresh buffers that no input views, but for the sum's
/// own buffer read once per row (softmax's maximum, read before the row's sum is
/// stored over it). `fill`, if not
/// null, is the linalg.fill of the sum's output between the two, whose value the
/// sum starts from.
struct ProducedRow {
  linalg::GenericOp producer;
  linalg::FillOp fill;
};

std::optional<ProducedRow> matchProducedRow(linalg::LinalgOp sumOp, const RowReduction &sum) {
  if (sum.combiner != Combiner::Sum)
    return std::nullopt;
  Operation *before = sumOp->getPrevNode();
  auto fill = dyn_cast_or_null<linalg::FillOp>(before);
  if (fill) {
    if (!fill.hasPureBufferSemantics() || beforeCasts(fill.getOutputs()[0]) != sum.output ||
        !fill.getInputs()[0].getType().isF32() || !matchPattern(fill.getInputs()[0], m_Constant()))
      return std::nullopt;
    before = fill->getPrevNode();
  }
  auto producer = dyn_cast_or_null<linalg::GenericOp>(before);
  if (!producer || !producer.hasPureBufferSemantics() || producer.getNumDpsInits() != 1 ||
      producer.getNumReductionLoops() != 0 ||
      beforeCasts(producer.getDpsInitOperand(0)->get()) != sum.input)
    return std::nullopt;
  int64_t rank = producer.getNumLoops();
  MLIRContext *ctx = producer.getContext();
  AffineMap identity = AffineMap::getMultiDimIdentityMap(rank, ctx);
  AffineMap perRow = identity.dropResult(rank - 1);
  SmallVector<AffineMap> maps = producer.getIndexingMapsArray();
  if (maps.back() != identity || cast<MemRefType>(sum.input.getType()).getRank() != rank)
    return std::nullopt;
  // The fused loop writes both outputs while it reads the inputs, vector by vector
  // and row by row: no input may see those writes except as the original order would.
  Value written = rootOf(sum.input), sums = rootOf(sum.output);
  if (!isFreshBuffer(written) || !isFreshBuffer(sums) || written == sums)
    return std::nullopt;
  for (OpOperand *input : producer.getDpsInputOperands()) {
    AffineMap map = producer.getMatchingIndexingMap(input);
    Value buffer = beforeCasts(input->get());
    if (!isa<MemRefType>(buffer.getType()) || !getElementTypeOrSelf(buffer).isF32() ||
        rootOf(buffer) == written ||
        (rootOf(buffer) == sums && !(buffer == sum.output && map == perRow)))
      return std::nullopt;
    if (!(map == identity && lastDimContiguous(buffer)) && map != perRow)
      return std::nullopt;
  }
  Block &body = producer.getRegion().front();
  if (!body.getArguments().back().use_empty())
    return std::nullopt;
  for (Operation &op : body.without_terminator()) {
    if (!isFusableBodyOp(op) || op.getNumResults() != 1)
      return std::nullopt;
    for (Type type : llvm::concat<Type>(op.getOperandTypes(), op.getResultTypes()))
      if (!type.isF32() && !type.isInteger(1))
        return std::nullopt;
  }
  if (!body.getTerminator()->getOperand(0).getType().isF32())
    return std::nullopt;
  return ProducedRow{producer, fill};
}

class RowReductionEmitter {
public:
  RowReductionEmitter(OpBuilder &b, Location loc, const RowReduction &reduction, int64_t lanes,
                      ProducedRow *produced = nullptr)
      : b(b), loc(loc), r(reduction), produced(produced),
        vectorType(VectorType::get({lanes}, b.getF32Type(), {true})),
        flagType(VectorType::get({lanes}, b.getI1Type(), {true})) {}

  void emit() {
    auto inputType = cast<MemRefType>(r.input.getType());
    int64_t outer = inputType.getRank() - 1;
    SmallVector<Value> lbs(outer, index(0)), ubs, steps(outer, index(1));
    for (int64_t d = 0; d < outer; ++d)
      ubs.push_back(memref::DimOp::create(b, loc, r.input, d));
    scf::buildLoopNest(b, loc, lbs, ubs, steps, [&](OpBuilder &, Location, ValueRange ivs) {
      emitRow(ivs);
    });
  }

private:
  Value index(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value splat(float v) {
    return arith::ConstantOp::create(b, loc, vectorType,
                                     DenseElementsAttr::get(vectorType, b.getF32FloatAttr(v)));
  }

  /// One row: whole vectors, then the masked rest, then the result combined
  /// with what the output held.
  void emitRow(ValueRange ivs) {
    auto inputType = cast<MemRefType>(r.input.getType());
    Value length = memref::DimOp::create(b, loc, r.input, inputType.getRank() - 1);
    Value step = arith::MulIOp::create(b, loc, vector::VectorScaleOp::create(b, loc),
                                       index(vectorType.getDimSize(0)));
    Value whole = arith::SubIOp::create(b, loc, length, arith::RemUIOp::create(b, loc, length, step));
    // The producer's per-row operands are read before the row's sum is stored
    // (softmax's maximum and sum share a buffer); a fill's value starts the sum.
    if (produced)
      loadRowOperands(ivs);
    Value initial = produced && produced->fill
                        ? produced->fill.getInputs()[0]
                        : memref::LoadOp::create(b, loc, r.output, ivs).getResult();
    const float inf = std::numeric_limits<float>::infinity();
    // Masked-off lanes of the tail: the combiner's identity (-0 for a sum).
    Value identity = splat(r.combiner == Combiner::Sum ? -0.0f
                           : r.combiner == Combiner::Max ? -inf
                                                         : inf);
    bool sum = r.combiner == Combiner::Sum;
    SmallVector<Value> start = sum ? SmallVector<Value>{initial}
                                   : SmallVector<Value>{identity, splat(0.0f)};
    auto wholeVector = [&](Value j) {
      SmallVector<Value> at(ivs);
      at.push_back(j);
      return produced ? produceVector(at, nullptr)
                      : vector::LoadOp::create(b, loc, vectorType, r.input, at).getResult();
    };
    // The first whole vector starts the accumulators (an extreme's are that vector
    // itself): no copies of the identities per row, and the loop is entered with
    // the vector state it keeps (LLVM otherwise set it again in every iteration).
    Value hasWhole = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, whole, index(0));
    auto first = scf::IfOp::create(
        b, loc, hasWhole,
        [&](OpBuilder &, Location) {
          Value v = wholeVector(index(0));
          scf::YieldOp::create(b, loc, sum ? combine(v, start) : SmallVector<Value>{v, v});
        },
        [&](OpBuilder &, Location) { scf::YieldOp::create(b, loc, start); });
    auto loop = scf::ForOp::create(
        b, loc, step, whole, step, first.getResults(),
        [&](OpBuilder &, Location, Value j, ValueRange acc) {
          scf::YieldOp::create(b, loc, combine(wholeVector(j), acc));
        });
    // The masked rest only where there is one: at a VLEN that divides the row it
    // would cost as much as a whole vector for nothing. For a maximum or minimum it
    // also says whether it held a NaN (its masked-off lanes are infinite).
    Value rest = arith::SubIOp::create(b, loc, length, whole);
    Value hasRest = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, rest, index(0));
    auto tail = scf::IfOp::create(
        b, loc, hasRest,
        [&](OpBuilder &, Location) {
          SmallVector<Value> at(ivs);
          at.push_back(whole);
          Value mask = vector::CreateMaskOp::create(b, loc, flagType, ValueRange{rest});
          Value v = produced
                        ? arith::SelectOp::create(b, loc, mask, produceVector(at, mask), identity)
                              .getResult()
                        : vector::MaskedLoadOp::create(b, loc, vectorType, r.input, at, mask,
                                                       identity)
                              .getResult();
          if (sum) {
            scf::YieldOp::create(b, loc, combine(v, loop.getResults()));
            return;
          }
          scf::YieldOp::create(b, loc, ValueRange{extremeOf(loop.getResult(0), v), anyNaN(v)});
        },
        [&](OpBuilder &, Location) {
          SmallVector<Value> acc(loop.getResults());
          if (!sum)
            acc.back() = arith::ConstantOp::create(b, loc, b.getBoolAttr(false));
          scf::YieldOp::create(b, loc, acc);
        });
    Value result;
    if (sum) {
      result = tail.getResult(0);
    } else {
      bool max = r.combiner == Combiner::Max;
      Value extreme =
          vector::ReductionOp::create(b, loc, max ? vector::CombiningKind::MAXNUMF
                                                  : vector::CombiningKind::MINNUMF,
                                      tail.getResult(0));
      // With the output's value, NaN-propagating as the IR asks; then NaN if the
      // row held one.
      extreme = max ? arith::MaximumFOp::create(b, loc, extreme, initial).getResult()
                    : arith::MinimumFOp::create(b, loc, extreme, initial).getResult();
      Value sawNaN = arith::OrIOp::create(b, loc, tail.getResult(1),
                                          wholeVectorsHeldNaN(ivs, whole, step, loop.getResult(1)));
      Value nan = arith::ConstantOp::create(
          b, loc, b.getF32FloatAttr(std::numeric_limits<float>::quiet_NaN()));
      result = arith::SelectOp::create(b, loc, sawNaN, nan, extreme);
    }
    memref::StoreOp::create(b, loc, result, r.output, ivs);
  }

  /// The producer's operands read once per row, as vectors of one value.
  void loadRowOperands(ValueRange ivs) {
    rowOperands.clear();
    linalg::GenericOp g = produced->producer;
    for (OpOperand *input : g.getDpsInputOperands()) {
      if (g.getMatchingIndexingMap(input).getNumResults() == (unsigned)ivs.size() + 1)
        continue;
      Value scalar = memref::LoadOp::create(b, loc, beforeCasts(input->get()), ivs);
      rowOperands[input->getOperandNumber()] =
          vector::BroadcastOp::create(b, loc, vectorType, scalar);
    }
  }

  /// The producer's values at `at` (under `mask` in the tail), stored into its
  /// output and returned: its body on vectors.
  Value produceVector(ArrayRef<Value> at, Value mask) {
    linalg::GenericOp g = produced->producer;
    Block &body = g.getRegion().front();
    IRMapping map;
    for (OpOperand *input : g.getDpsInputOperands()) {
      Value v;
      if (auto it = rowOperands.find(input->getOperandNumber()); it != rowOperands.end())
        v = it->second;
      else if (mask)
        v = vector::MaskedLoadOp::create(b, loc, vectorType, beforeCasts(input->get()), at, mask,
                                         zerosOf(vectorType));
      else
        v = vector::LoadOp::create(b, loc, vectorType, beforeCasts(input->get()), at);
      map.map(body.getArgument(input->getOperandNumber()), v);
    }
    for (Operation &op : body.without_terminator()) {
      auto vectorOf = [&](Type t) {
        return VectorType::get(vectorType.getShape(), t, vectorType.getScalableDims());
      };
      SmallVector<Value> operands;
      for (Value operand : op.getOperands()) {
        Value mapped = map.lookupOrNull(operand);
        // A value from outside the body (or a constant in it) is the same in every lane.
        operands.push_back(mapped ? mapped
                                  : vector::BroadcastOp::create(b, loc, vectorOf(operand.getType()),
                                                                operand)
                                        .getResult());
      }
      Value result;
      if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
        Value scalar = b.clone(op)->getResult(0);
        result = vector::BroadcastOp::create(b, loc, vectorOf(constant.getType()), scalar);
      } else {
        OperationState state(loc, op.getName().getIdentifier(), operands,
                             TypeRange{vectorOf(op.getResult(0).getType())}, op.getAttrs());
        result = b.create(state)->getResult(0);
      }
      map.map(op.getResult(0), result);
    }
    Value y = map.lookup(body.getTerminator()->getOperand(0));
    Value out = r.input; // the producer's output, before casts
    if (mask)
      vector::MaskedStoreOp::create(b, loc, out, at, mask, y);
    else
      vector::StoreOp::create(b, loc, y, out, at);
    return y;
  }

  Value zerosOf(VectorType type) {
    return arith::ConstantOp::create(b, loc, type, b.getZeroAttr(type));
  }

  /// The accumulators after one more whole vector `v`. A maximum or minimum
  /// ignores NaN (one instruction) and adds v to a second accumulator, which turns
  /// NaN once v holds a NaN (or the lane has summed to +inf and -inf, which a
  /// causal mask's -inf alone does not): one instruction per vector where a compare
  /// and an or cost two.
  SmallVector<Value> combine(Value v, ValueRange acc) {
    if (r.combiner == Combiner::Sum)
      // In order, element by element: vector.reduction without reassociation.
      return {vector::ReductionOp::create(b, loc, vector::CombiningKind::ADD, v, acc[0])};
    return {extremeOf(acc[0], v), arith::AddFOp::create(b, loc, acc[1], v)};
  }

  Value extremeOf(Value acc, Value v) {
    return r.combiner == Combiner::Max ? arith::MaxNumFOp::create(b, loc, acc, v).getResult()
                                       : arith::MinNumFOp::create(b, loc, acc, v).getResult();
  }

  Value anyNaN(Value v) {
    Value isNaN = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, v, v);
    return vector::ReductionOp::create(b, loc, vector::CombiningKind::OR, isNaN);
  }

  /// Whether the row's whole vectors held a NaN, given their lane sums: looked for
  /// again only when a sum is NaN.
  Value wholeVectorsHeldNaN(ValueRange ivs, Value whole, Value step, Value special) {
    Value seen = arith::CmpFOp::create(
        b, loc, arith::CmpFPredicate::UNO,
        vector::ReductionOp::create(b, loc, vector::CombiningKind::ADD, special),
        arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0f)));
    auto check = scf::IfOp::create(
        b, loc, seen,
        [&](OpBuilder &, Location) {
          auto rescan = scf::ForOp::create(
              b, loc, index(0), whole, step,
              ValueRange{arith::ConstantOp::create(b, loc, b.getBoolAttr(false))},
              [&](OpBuilder &, Location, Value j, ValueRange found) {
                SmallVector<Value> at(ivs);
                at.push_back(j);
                Value v = vector::LoadOp::create(b, loc, vectorType, r.input, at);
                scf::YieldOp::create(b, loc,
                                     ValueRange{arith::OrIOp::create(b, loc, found[0], anyNaN(v))});
              });
          scf::YieldOp::create(b, loc, rescan.getResults());
        },
        [&](OpBuilder &, Location) {
          scf::YieldOp::create(b, loc,
                               ValueRange{arith::ConstantOp::create(b, loc, b.getBoolAttr(false))});
        });
    return check.getResult(0);
  }

  OpBuilder &b;
  Location loc;
  const RowReduction &r;
  ProducedRow *produced;
  VectorType vectorType, flagType;
  llvm::DenseMap<unsigned, Value> rowOperands; // by operand number
};

struct VectorizeRowReductions
    : mips::impl::MipsVectorizeRowReductionsBase<VectorizeRowReductions> {
  using MipsVectorizeRowReductionsBase::MipsVectorizeRowReductionsBase;

  void runOnOperation() override {
    if (lanes < 1) {
      getOperation()->emitError("mips-vectorize-row-reductions: lanes must be at least 1");
      return signalPassFailure();
    }
    SmallVector<linalg::LinalgOp> candidates;
    getOperation()->walk([&](linalg::LinalgOp op) { candidates.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : candidates) {
      std::optional<RowReduction> reduction = matchRowReduction(op);
      if (!reduction)
        continue;
      std::optional<ProducedRow> produced = fuseProducers ? matchProducedRow(op, *reduction)
                                                          : std::nullopt;
      if (produced) {
        // At the producer: a fill between them would overwrite what it reads.
        rewriter.setInsertionPoint(produced->producer);
        RowReductionEmitter(rewriter, op.getLoc(), *reduction, lanes, &*produced).emit();
        rewriter.eraseOp(op);
        if (produced->fill)
          rewriter.eraseOp(produced->fill);
        rewriter.eraseOp(produced->producer);
        continue;
      }
      rewriter.setInsertionPoint(op);
      RowReductionEmitter(rewriter, op.getLoc(), *reduction, lanes).emit();
      rewriter.eraseOp(op);
    }
  }
};

} // namespace
