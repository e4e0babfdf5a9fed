// SPDX-License-Identifier: Apache-2.0
//===- MipsToVector.cpp - small mips.matmul as inline vector code -*- C++ -*-===//
//
// A mips.matmul on buffers marked `inlined` (mips-inline-small-matmuls chose it:
// small and static) becomes straight-line vector code in place of a libmips call:
// vector loads and stores of B's and C's rows where they are unit-stride (checked at
// run time), loops for any other view.
//
//===----------------------------------------------------------------------===//

#include "mips-compiler/Conversion/MipsToVector/MipsToVector.h"

#include "mips-compiler/Dialect/Mips/MipsOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace mips {
#define GEN_PASS_DEF_CONVERTMIPSTOVECTOR
#include "mips-compiler/Conversion/Passes.h.inc"
} // namespace mips
} // namespace mlir

using namespace mlir;

namespace {

/// The buffer behind `metadata`, as a view of static `shape` whose innermost
/// stride is statically 1 (a memref.cast to that type would fold away again).
static Value viewWithUnitInnerStride(OpBuilder &b, Location loc, ArrayRef<int64_t> shape,
                                     memref::ExtractStridedMetadataOp metadata) {
  SmallVector<OpFoldResult> sizes, strides;
  for (auto [size, stride] : llvm::zip_equal(shape, metadata.getStrides())) {
    sizes.push_back(b.getIndexAttr(size));
    strides.push_back(stride);
  }
  strides.back() = b.getIndexAttr(1);
  return memref::ReinterpretCastOp::create(b, loc, metadata.getBaseBuffer(),
                                           OpFoldResult(metadata.getOffset()), sizes, strides);
}

/// The same product as loops, for any strides: a linalg.matmul (which the
/// pipeline lowers to loops), after a zero fill for `overwrite`.
static void emitLoopMatmul(OpBuilder &b, mips::MatmulOp op) {
  Location loc = op.getLoc();
  MLIRContext *ctx = op.getContext();
  if (op.getOverwrite()) {
    Value zero = arith::ConstantOp::create(
        b, loc, b.getZeroAttr(getElementTypeOrSelf(op.getInit().getType())));
    linalg::FillOp::create(b, loc, zero, op.getInit());
  }
  AffineExpr m, n, k;
  bindDims(ctx, m, n, k);
  auto map = [&](AffineExpr x, AffineExpr y) {
    return AffineMapAttr::get(AffineMap::get(3, 0, {x, y}, ctx));
  };
  ArrayAttr maps = b.getArrayAttr({op.getTransposeLhs() ? map(k, m) : map(m, k),
                                   op.getTransposeRhs() ? map(n, k) : map(k, n), map(m, n)});
  linalg::MatmulOp::create(b, loc, TypeRange{}, ValueRange{op.getLhs(), op.getRhs()},
                           ValueRange{op.getInit()},
                           ArrayRef<NamedAttribute>{b.getNamedAttr("indexing_maps", maps)});
}

/// Where bufferization may not accumulate into C in place (a function argument,
/// say), it copies C whole into a fresh buffer just before the matmul. From an
/// argument's dynamic layout that copy is a memrefCopy call, as dear as a small
/// matmul itself; inline code can instead read C's rows from the copy's source
/// and store them into the fresh buffer. Returns that copy, or null if C is not
/// such a fresh copy, the matmul overwrites C, or it has no vector path (a
/// transposed B).
static memref::CopyOp findCopyIntoFreshInit(mips::MatmulOp op) {
  auto copy = dyn_cast_or_null<memref::CopyOp>(op->getPrevNode());
  if (op.getOverwrite() || op.getTransposeRhs() || !copy || copy.getTarget() != op.getInit() ||
      !op.getInit().getDefiningOp<memref::AllocOp>())
    return {};
  // The source must be a buffer the inline code can view by its strides, and no
  // view of the fresh buffer (rows stored early would change rows read late);
  // extract_strided_metadata and reinterpret_cast are views too.
  auto sourceType = dyn_cast<MemRefType>(copy.getSource().getType());
  if (!sourceType || !mips::isPlainStridedMemRef(sourceType))
    return {};
  Value root = copy.getSource();
  while (auto view = root.getDefiningOp<ViewLikeOpInterface>())
    root = view.getViewSource();
  if (root == op.getInit())
    return {};
  return copy;
}

/// Rows of C per block of the wide inline code: 8 accumulators of LMUL 2 and B's row
/// take 18 of RVV's 32 registers, and a B row loaded serves 8 multiply-adds.
constexpr int64_t kInlineRowsPerBlock = 8;

/// Inline code for f32 rows wider than a fixed vector prices well: a fixed vector is
/// sized for the smallest VLEN (16 floats take LMUL 4, and keeping B's K rows in
/// registers spills from 16x16x16 on). Here vectors are scalable (vector<[lanes]xf32>),
/// C's columns run in chunks of vscale * lanes with a mask for the last one (one
/// chunk for 16 columns from VLEN 256), and C's rows in blocks of at most 8 whose
/// accumulators stay in registers while each k loads B's row once and multiplies it
/// by a broadcast A(i, l) per row. A is read through a view with a unit inner stride,
/// so its elements are loads at immediate offsets from a row's (or column's) start.
/// `rhs`, `init`, `initSource` and `lhs` are such views; runs inside the fast branch.
static void emitScalableInlineMatmul(OpBuilder &b, Location loc, mips::MatmulOp op, Value lhs,
                                     Value rhs, Value init, Value initSource, int64_t lanes) {
  auto initType = cast<MemRefType>(op.getInit().getType());
  const int64_t m = initType.getDimSize(0), n = initType.getDimSize(1),
                k = cast<MemRefType>(op.getLhs().getType()).getDimSize(op.getLhsKDim());
  Type f32 = b.getF32Type();
  auto rowType = VectorType::get({lanes}, f32, {true});
  auto maskType = VectorType::get({lanes}, b.getI1Type(), {true});
  auto index = [&](OpBuilder &at, int64_t i) {
    return arith::ConstantIndexOp::create(at, loc, i).getResult();
  };
  Value step = arith::MulIOp::create(b, loc, vector::VectorScaleOp::create(b, loc),
                                     index(b, lanes));
  scf::ForOp::create(
      b, loc, index(b, 0), index(b, n), step, ValueRange{},
      [&](OpBuilder &body, Location, Value j0, ValueRange) {
        Value left = arith::SubIOp::create(body, loc, index(body, n), j0);
        Value mask = vector::CreateMaskOp::create(body, loc, maskType, ValueRange{left});
        Value zero = arith::ConstantOp::create(body, loc, body.getZeroAttr(rowType));
        // Lanes past the mask are never stored: no value for them to merge into
        // (a zero passed through costs a register copy per load).
        Value unused = ub::PoisonOp::create(body, loc, rowType);
        // Row blocks split evenly, as libmips splits them: 16 rows are 8 + 8.
        const int64_t blocks = llvm::divideCeil(m, kInlineRowsPerBlock);
        for (int64_t block = 0, first = 0; block < blocks; ++block) {
          const int64_t rows = (m - first) / (blocks - block);
          SmallVector<Value> acc;
          for (int64_t i = first; i < first + rows; ++i)
            acc.push_back(op.getOverwrite()
                              ? zero
                              : vector::MaskedLoadOp::create(body, loc, rowType, initSource,
                                                             ValueRange{index(body, i), j0}, mask,
                                                             unused)
                                    .getResult());
          // A loop over k, not unrolled here: with every step unrolled, LLVM
          // schedules B's rows early and spills the accumulators.
          auto steps = scf::ForOp::create(
              body, loc, index(body, 0), index(body, k), index(body, 1), acc,
              [&](OpBuilder &kb, Location, Value l, ValueRange sums) {
                Value rowOfB =
                    vector::MaskedLoadOp::create(kb, loc, rowType, rhs, ValueRange{l, j0}, mask, unused);
                SmallVector<Value> next;
                for (int64_t r = 0; r < rows; ++r) {
                  Value i = index(kb, first + r);
                  SmallVector<Value> at = op.getTransposeLhs() ? SmallVector<Value>{l, i}
                                                               : SmallVector<Value>{i, l};
                  Value a = memref::LoadOp::create(kb, loc, lhs, at);
                  Value broadcast = vector::BroadcastOp::create(kb, loc, rowType, a);
                  next.push_back(vector::FMAOp::create(kb, loc, broadcast, rowOfB, sums[r]));
                }
                scf::YieldOp::create(kb, loc, next);
              });
          acc.assign(steps.getResults().begin(), steps.getResults().end());
          for (int64_t r = 0; r < rows; ++r)
            vector::MaskedStoreOp::create(body, loc, init, ValueRange{index(body, first + r), j0},
                                          mask, acc[r]);
          first += rows;
        }
        scf::YieldOp::create(body, loc);
      });
}

/// Straight-line vector code on fixed vectors of N: B's K rows in vector registers
/// and, one row of C at a time, for each l a multiply-add of A(i, l), broadcast,
/// with row l of B into row i of C. `rhs`, `init` and `initSource` are views with
/// a unit inner stride; runs inside the fast branch.
static void emitFixedInlineMatmul(OpBuilder &fast, Location loc, mips::MatmulOp op, Value rhs,
                                  Value init, Value initSource) {
  auto lhsType = cast<MemRefType>(op.getLhs().getType());
  auto initType = cast<MemRefType>(op.getInit().getType());
  const int64_t m = initType.getDimSize(0), n = initType.getDimSize(1),
                k = lhsType.getDimSize(op.getLhsKDim());
  Type acc = initType.getElementType(), in = lhsType.getElementType();
  const bool isFloat = isa<FloatType>(acc);
  auto index = [&](int64_t i) { return arith::ConstantIndexOp::create(fast, loc, i).getResult(); };
  auto rowType = VectorType::get({n}, acc);
  Value zero = index(0);
  SmallVector<Value> rowsOfB;
  for (int64_t l = 0; l < k; ++l) {
    Value row = vector::LoadOp::create(fast, loc, VectorType::get({n}, in), rhs,
                                       ValueRange{index(l), zero});
    if (!isFloat)
      row = arith::ExtSIOp::create(fast, loc, rowType, row);
    rowsOfB.push_back(row);
  }
  // One row of C at a time: B's K rows and a single row of C are live, not all
  // of C (M + K rows would spill long before K + 1 do).
  for (int64_t i = 0; i < m; ++i) {
    Value rowOfC = op.getOverwrite()
                       ? arith::ConstantOp::create(fast, loc, fast.getZeroAttr(rowType)).getResult()
                       : vector::LoadOp::create(fast, loc, rowType, initSource,
                                                ValueRange{index(i), zero})
                             .getResult();
    for (int64_t l = 0; l < k; ++l) {
      SmallVector<Value> at = op.getTransposeLhs() ? SmallVector<Value>{index(l), index(i)}
                                                   : SmallVector<Value>{index(i), index(l)};
      Value a = memref::LoadOp::create(fast, loc, op.getLhs(), at);
      if (!isFloat)
        a = arith::ExtSIOp::create(fast, loc, acc, a);
      Value broadcast = vector::BroadcastOp::create(fast, loc, rowType, a);
      rowOfC = isFloat ? vector::FMAOp::create(fast, loc, broadcast, rowsOfB[l], rowOfC).getResult()
                       : arith::AddIOp::create(fast, loc, rowOfC,
                                               arith::MulIOp::create(fast, loc, broadcast, rowsOfB[l]))
                             .getResult();
    }
    vector::StoreOp::create(fast, loc, rowOfC, init, ValueRange{index(i), zero});
  }
}

/// Inline code for an inlined matmul: vector loads and stores of B's and C's rows
/// (and A's elements through a view, for the scalable form), which need them
/// unit-stride; that is checked at run time (C callers may pass any view), and
/// other views take the loops of emitLoopMatmul. Rows wider than a fixed vector
/// prices well (8 floats, LMUL 2 at VLEN 128) take the scalable form where the
/// target has it (`scalableLanes` > 0, f32), others the fixed one. `copyIn`, from
/// findCopyIntoFreshInit, is folded in: C's rows are read from its source.
static void emitInlineMatmul(OpBuilder &b, mips::MatmulOp op, memref::CopyOp copyIn,
                             int64_t scalableLanes) {
  Location loc = op.getLoc();
  auto lhsType = cast<MemRefType>(op.getLhs().getType());
  auto initType = cast<MemRefType>(op.getInit().getType());
  // B's rows are unit-stride only in its stored order.
  if (op.getTransposeRhs()) {
    emitLoopMatmul(b, op);
    return;
  }
  auto rhsMetadata = memref::ExtractStridedMetadataOp::create(b, loc, op.getRhs());
  auto initMetadata = memref::ExtractStridedMetadataOp::create(b, loc, op.getInit());
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  auto isOne = [&](Value stride) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, stride, one).getResult();
  };
  Value rowsAreUnitStride = arith::AndIOp::create(b, loc, isOne(rhsMetadata.getStrides().back()),
                                                  isOne(initMetadata.getStrides().back()));
  const bool scalable = scalableLanes > 0 && isa<FloatType>(initType.getElementType()) &&
                        initType.getDimSize(1) > 8;
  memref::ExtractStridedMetadataOp lhsMetadata;
  if (scalable) {
    lhsMetadata = memref::ExtractStridedMetadataOp::create(b, loc, op.getLhs());
    rowsAreUnitStride = arith::AndIOp::create(b, loc, rowsAreUnitStride,
                                              isOne(lhsMetadata.getStrides().back()));
  }
  memref::ExtractStridedMetadataOp sourceMetadata;
  if (copyIn) {
    sourceMetadata = memref::ExtractStridedMetadataOp::create(b, loc, copyIn.getSource());
    rowsAreUnitStride = arith::AndIOp::create(b, loc, rowsAreUnitStride,
                                              isOne(sourceMetadata.getStrides().back()));
  }
  auto ifOp = scf::IfOp::create(b, loc, rowsAreUnitStride, /*withElseRegion=*/true);

  OpBuilder fast = ifOp.getThenBodyBuilder();
  Value rhs = viewWithUnitInnerStride(fast, loc, cast<MemRefType>(op.getRhs().getType()).getShape(),
                                      rhsMetadata);
  Value init = viewWithUnitInnerStride(fast, loc, initType.getShape(), initMetadata);
  Value initSource =
      copyIn ? viewWithUnitInnerStride(fast, loc, initType.getShape(), sourceMetadata) : init;
  if (scalable)
    emitScalableInlineMatmul(fast, loc, op,
                             viewWithUnitInnerStride(fast, loc, lhsType.getShape(), lhsMetadata),
                             rhs, init, initSource, scalableLanes);
  else
    emitFixedInlineMatmul(fast, loc, op, rhs, init, initSource);

  OpBuilder general = ifOp.getElseBodyBuilder();
  if (copyIn)
    memref::CopyOp::create(general, loc, copyIn.getSource(), op.getInit());
  emitLoopMatmul(general, op);
}

struct ConvertMipsToVectorPass : mips::impl::ConvertMipsToVectorBase<ConvertMipsToVectorPass> {
  using Base::Base;

  void runOnOperation() override {
    if (scalableLanes < 0) {
      getOperation()->emitError("convert-mips-to-vector: scalable-lanes must not be negative");
      return signalPassFailure();
    }
    SmallVector<mips::MatmulOp> inlined;
    WalkResult onTensors = getOperation()->walk([&](mips::MatmulOp op) {
      if (!op.getInlined())
        return WalkResult::advance();
      if (!isa<MemRefType>(op.getInit().getType())) {
        op->emitOpError("on tensors cannot be written as vector code; bufferize it first");
        return WalkResult::interrupt();
      }
      inlined.push_back(op);
      return WalkResult::advance();
    });
    if (onTensors.wasInterrupted())
      return signalPassFailure();
    IRRewriter rewriter(&getContext());
    for (mips::MatmulOp op : inlined) {
      // A C that is a fresh copy is read from the copy's source, and the copy goes.
      memref::CopyOp copyIn = findCopyIntoFreshInit(op);
      rewriter.setInsertionPoint(op);
      emitInlineMatmul(rewriter, op, copyIn, scalableLanes);
      rewriter.eraseOp(op);
      if (copyIn)
        rewriter.eraseOp(copyIn);
    }
  }
};

} // namespace
