// SPDX-License-Identifier: Apache-2.0
//===- BatchMatmulLoop.cpp - mips.batch_matmul as a loop of matmuls -*- C++ -*-===//
//
// The form of a batch that any libmips 1.x runs (one call per entry), and the
// form in which small entries can be inlined one by one.
//
//===----------------------------------------------------------------------===//

#include "mips-compiler/Dialect/Mips/BatchMatmulLoop.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;

OpFoldResult mlir::mips::getMixedExtent(OpBuilder &b, Location loc, Value shaped, int64_t dim) {
  if (isa<RankedTensorType>(shaped.getType()))
    return tensor::getMixedSize(b, loc, shaped, dim);
  return memref::getMixedSize(b, loc, shaped, dim);
}

Value mlir::mips::sliceBatchEntry(OpBuilder &b, Location loc, Value batched, OpFoldResult index) {
  auto type = cast<ShapedType>(batched.getType());
  OpFoldResult zero = b.getIndexAttr(0), one = b.getIndexAttr(1);
  SmallVector<OpFoldResult> offsets = {index, zero, zero};
  SmallVector<OpFoldResult> sizes = {one, getMixedExtent(b, loc, batched, 1),
                                     getMixedExtent(b, loc, batched, 2)};
  SmallVector<OpFoldResult> strides(3, one);
  SmallVector<int64_t> shape = {type.getDimSize(1), type.getDimSize(2)};
  if (isa<RankedTensorType>(type))
    return tensor::ExtractSliceOp::create(
        b, loc, RankedTensorType::get(shape, type.getElementType()), batched, offsets, sizes,
        strides);
  MemRefType viewType = memref::SubViewOp::inferRankReducedResultType(
      shape, cast<MemRefType>(type), offsets, sizes, strides);
  return memref::SubViewOp::create(b, loc, viewType, batched, offsets, sizes, strides);
}

SmallVector<mips::MatmulOp> mlir::mips::expandBatchMatmul(RewriterBase &rewriter,
                                                          BatchMatmulOp op) {
  Location loc = op.getLoc();
  Value lhs = op.getLhs(), rhs = op.getRhs(), init = op.getInit();
  const bool onTensors = isa<RankedTensorType>(init.getType());
  auto replaceWith = [&](Value result) {
    if (onTensors)
      rewriter.replaceOp(op, result);
    else
      rewriter.eraseOp(op);
  };
  rewriter.setInsertionPoint(op);

  // A static 0 extent: slices of it would have offsets that upstream's verifier
  // calls out of bounds (offset 0 in a 0 extent). Only K = 0 with overwrite
  // changes init: the product of nothing is zero.
  auto initType = cast<ShapedType>(init.getType());
  if (llvm::any_of(ValueRange{lhs, rhs, init}, [](Value v) {
        return llvm::is_contained(cast<ShapedType>(v.getType()).getShape(), 0);
      })) {
    Value result = init;
    if (op.getOverwrite() && !llvm::is_contained(initType.getShape(), 0)) {
      Value zero = arith::ConstantOp::create(rewriter, loc,
                                             rewriter.getZeroAttr(initType.getElementType()));
      auto fill = linalg::FillOp::create(rewriter, loc, ValueRange{zero}, ValueRange{init});
      if (onTensors)
        result = fill.getResult(0);
    }
    replaceWith(result);
    return {};
  }

  SmallVector<MatmulOp> created;
  // The product of batch entry `index` into `acc` (the whole init).
  auto multiplyEntry = [&](OpBuilder &b, OpFoldResult index, Value acc) -> Value {
    Value a = op.isLhsBatched() ? sliceBatchEntry(b, loc, lhs, index) : lhs;
    Value bm = op.isRhsBatched() ? sliceBatchEntry(b, loc, rhs, index) : rhs;
    Value c = sliceBatchEntry(b, loc, acc, index);
    Type resultType = onTensors ? c.getType() : Type();
    auto matmul = MatmulOp::create(b, loc, resultType, a, bm, c, op.getTransposeLhs(),
                                   op.getTransposeRhs(), op.getOverwrite());
    created.push_back(matmul);
    if (!onTensors)
      return {};
    OpFoldResult zero = b.getIndexAttr(0), one = b.getIndexAttr(1);
    return tensor::InsertSliceOp::create(
        b, loc, matmul.getResult(), acc, ArrayRef<OpFoldResult>{index, zero, zero},
        ArrayRef<OpFoldResult>{one, getMixedExtent(b, loc, acc, 1), getMixedExtent(b, loc, acc, 2)},
        ArrayRef<OpFoldResult>{one, one, one});
  };

  // A unit batch (what TOSA's 3-D matmul often is) needs no loop.
  if (initType.getDimSize(0) == 1) {
    replaceWith(multiplyEntry(rewriter, rewriter.getIndexAttr(0), init));
    return created;
  }
  Value lower = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value step = arith::ConstantIndexOp::create(rewriter, loc, 1);
  Value upper =
      getValueOrCreateConstantIndexOp(rewriter, loc, getMixedExtent(rewriter, loc, init, 0));
  SmallVector<Value, 1> iterArgs;
  if (onTensors)
    iterArgs.push_back(init);
  auto loop = scf::ForOp::create(
      rewriter, loc, lower, upper, step, iterArgs,
      [&](OpBuilder &b, Location, Value index, ValueRange carried) {
        Value result = multiplyEntry(b, index, onTensors ? carried[0] : init);
        scf::YieldOp::create(b, loc, result ? ValueRange{result} : ValueRange{});
      });
  replaceWith(onTensors ? loop.getResult(0) : Value());
  return created;
}
