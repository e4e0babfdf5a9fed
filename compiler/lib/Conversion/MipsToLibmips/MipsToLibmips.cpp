// SPDX-License-Identifier: Apache-2.0
//===- MipsToLibmips.cpp - mips.matmul on memrefs to libmips ----*- C++ -*-===//
//
// The only place that knows the libmips ABI: every buffer is split by
// memref.extract_strided_metadata into (base, offset, stride0, stride1),
// transposes swap strides, dynamic shapes are checked before the call, and a
// nonzero status calls the runtime's failure report.
//
//===----------------------------------------------------------------------===//

#include "mips-compiler/Conversion/MipsToLibmips/MipsToLibmips.h"

#include "mips-compiler/Dialect/Mips/MipsOps.h"
#include "mips-compiler/Runtime/Imports.h"
#include "mips/mips.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace mips {
#define GEN_PASS_DEF_CONVERTMIPSTOLIBMIPS
#include "mips-compiler/Conversion/Passes.h.inc"
} // namespace mips
} // namespace mlir

using namespace mlir;

namespace {

/// Finds or declares `name` in `module`. A declaration with another type is an
/// error: the call would not match the ABI.
static FailureOr<func::FuncOp> getOrDeclareFunction(Operation *user,
                                                    StringRef name,
                                                    FunctionType type,
                                                    bool barePointers) {
  auto module = user->getParentOfType<ModuleOp>();
  if (auto existing = module.lookupSymbol<func::FuncOp>(name)) {
    if (existing.getFunctionType() != type)
      return user->emitError() << "'" << name << "' is already declared as "
                               << existing.getFunctionType()
                               << ", which does not match the libmips ABI "
                               << type;
    return existing;
  }
  // A plain builder: the declaration is not an op for bufferization to visit.
  OpBuilder builder = OpBuilder::atBlockBegin(module.getBody());
  auto decl = func::FuncOp::create(builder, module.getLoc(), name, type);
  decl.setPrivate();
  if (barePointers)
    decl->setAttr("llvm.bareptr", builder.getUnitAttr()); // base pointers as plain ptr
  return decl;
}

/// One matrix as the libmips ABI passes it.
struct AbiMatrix {
  Value base;              // memref<elt>: lowers to a bare pointer
  Value offset;            // i64
  Value stride0, stride1;  // i64
  SmallVector<Value, 2> sizes; // index
};

/// Splits `buffer` into (base, offset, strides); `transposed` swaps the strides
/// and sizes so that element (i, j) of the view is element (j, i) of `buffer`.
static AbiMatrix decompose(OpBuilder &b, Location loc, Value buffer,
                           bool transposed) {
  auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, buffer);
  auto toI64 = [&](Value index) {
    return arith::IndexCastOp::create(b, loc, b.getI64Type(), index).getResult();
  };
  unsigned d0 = transposed ? 1 : 0, d1 = transposed ? 0 : 1;
  AbiMatrix matrix;
  matrix.base = metadata.getBaseBuffer();
  matrix.offset = toI64(metadata.getOffset());
  matrix.stride0 = toI64(metadata.getStrides()[d0]);
  matrix.stride1 = toI64(metadata.getStrides()[d1]);
  matrix.sizes = {metadata.getSizes()[d0], metadata.getSizes()[d1]};
  return matrix;
}

/// True if the verifier could not already prove that the operands fit together.
static bool needsShapeCheck(mips::MatmulOp op) {
  auto lhs = cast<ShapedType>(op.getLhs().getType());
  auto rhs = cast<ShapedType>(op.getRhs().getType());
  auto init = cast<ShapedType>(op.getInit().getType());
  return !lhs.hasStaticShape() || !rhs.hasStaticShape() || !init.hasStaticShape();
}

/// Emits `if (any extent disagrees) bad_shapes(...)`: with dynamic shapes, a
/// mismatch found only at run time must stop the program before libmips reads
/// or writes outside a buffer.
static LogicalResult emitShapeCheck(OpBuilder &b, mips::MatmulOp op,
                                    const AbiMatrix &a, const AbiMatrix &bm,
                                    const AbiMatrix &c) {
  Location loc = op.getLoc();
  auto same = [&](Value x, Value y) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, x, y).getResult();
  };
  Value fits = arith::AndIOp::create(
      b, loc,
      arith::AndIOp::create(b, loc, same(a.sizes[1], bm.sizes[0]),
                            same(c.sizes[0], a.sizes[0])),
      same(c.sizes[1], bm.sizes[1]));
  Value misfit = arith::XOrIOp::create(
      b, loc, fits, arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1));
  SmallVector<Type> argTypes(6, b.getI64Type());
  FailureOr<func::FuncOp> report =
      getOrDeclareFunction(op, mips::badShapesSymbol(),
                           b.getFunctionType(argTypes, {}), /*barePointers=*/false);
  if (failed(report))
    return failure();
  auto ifOp = scf::IfOp::create(b, loc, misfit, /*withElseRegion=*/false);
  OpBuilder then = ifOp.getThenBodyBuilder();
  SmallVector<Value> extents;
  for (Value size : {a.sizes[0], a.sizes[1], bm.sizes[0], bm.sizes[1], c.sizes[0],
                     c.sizes[1]})
    extents.push_back(
        arith::IndexCastOp::create(then, loc, then.getI64Type(), size).getResult());
  func::CallOp::create(then, loc, *report, extents);
  return success();
}

/// Emits `status = mips_matmul_<type>(m, n, k, A..., B..., C..., flags)` and
/// `if (status != 0) call_failed(slot, status, mips_status_string(status))`;
/// the status text comes from the same provider as the failed call.
static LogicalResult emitLibmipsCall(OpBuilder &b, mips::MatmulOp op) {
  Location loc = op.getLoc();
  Value lhs = op.getLhs(), rhs = op.getRhs(), init = op.getInit();
  // The verifier guarantees a callee.
  StringRef callee = *mips::lookupMatmulCallee(getElementTypeOrSelf(lhs), getElementTypeOrSelf(rhs),
                                               getElementTypeOrSelf(init));

  AbiMatrix a = decompose(b, loc, lhs, op.getTransposeLhs());
  AbiMatrix bm = decompose(b, loc, rhs, op.getTransposeRhs());
  AbiMatrix c = decompose(b, loc, init, /*transposed=*/false);
  if (needsShapeCheck(op) && failed(emitShapeCheck(b, op, a, bm, c)))
    return failure();
  auto toI64 = [&](Value index) {
    return arith::IndexCastOp::create(b, loc, b.getI64Type(), index).getResult();
  };
  Value m = toI64(a.sizes[0]), k = toI64(a.sizes[1]), n = toI64(bm.sizes[1]);
  Value flags = arith::ConstantIntOp::create(
      b, loc, b.getI32Type(), op.getOverwrite() ? 0 : MIPS_MATMUL_ACCUMULATE);

  SmallVector<Value> operands = {m, n, k};
  for (const AbiMatrix *matrix : {&a, &bm, &c})
    operands.append({matrix->base, matrix->offset, matrix->stride0, matrix->stride1});
  operands.push_back(flags);

  auto calleeType = b.getFunctionType(ValueRange(operands).getTypes(),
                                      {b.getI32Type()});
  FailureOr<func::FuncOp> decl =
      getOrDeclareFunction(op, callee, calleeType, /*barePointers=*/true);
  if (failed(decl))
    return failure();
  Value status = func::CallOp::create(b, loc, *decl, operands).getResult(0);

  Type textType = LLVM::LLVMPointerType::get(b.getContext());
  FailureOr<func::FuncOp> statusString = getOrDeclareFunction(
      op, "mips_status_string", b.getFunctionType({b.getI32Type()}, {textType}),
      /*barePointers=*/false);
  FailureOr<func::FuncOp> failedDecl = getOrDeclareFunction(
      op, mips::callFailedSymbol(),
      b.getFunctionType({b.getI32Type(), b.getI32Type(), textType}, {}),
      /*barePointers=*/false);
  if (failed(statusString) || failed(failedDecl))
    return failure();
  Value zero = arith::ConstantIntOp::create(b, loc, b.getI32Type(), 0);
  Value isError = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                        status, zero);
  auto ifOp = scf::IfOp::create(b, loc, isError, /*withElseRegion=*/false);
  OpBuilder then = ifOp.getThenBodyBuilder();
  Value slot = arith::ConstantIntOp::create(then, loc, then.getI32Type(),
                                            *mips::lookupImportSlot(callee));
  Value text = func::CallOp::create(then, loc, *statusString, ValueRange{status})
                   .getResult(0);
  func::CallOp::create(then, loc, *failedDecl, ValueRange{slot, status, text});
  return success();
}

//===----------------------------------------------------------------------===//
// Inline code, for matmuls marked `inlined`
//===----------------------------------------------------------------------===//

/// `buffer`, whose metadata is `metadata`, as a view whose innermost stride is
/// statically 1 (a memref.cast to that type would fold away again).
static Value viewWithUnitInnerStride(OpBuilder &b, Location loc, Value buffer,
                                     memref::ExtractStridedMetadataOp metadata) {
  auto type = cast<MemRefType>(buffer.getType());
  SmallVector<OpFoldResult> sizes, strides;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    sizes.push_back(b.getIndexAttr(type.getDimSize(d)));
    strides.push_back(metadata.getStrides()[d]);
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

/// Straight-line vector code: C's M rows and B's K rows in vector registers, and
/// for each (i, l) a multiply-add of A(i, l), broadcast, with row l of B into row
/// i of C. Rows are vector loads and stores, so it needs unit-stride rows of B and
/// C; that is checked at run time (C callers may pass any view), and other views
/// take the loops of emitLoopMatmul.
static void emitInlineMatmul(OpBuilder &b, mips::MatmulOp op) {
  Location loc = op.getLoc();
  auto lhsType = cast<MemRefType>(op.getLhs().getType());
  auto initType = cast<MemRefType>(op.getInit().getType());
  const int64_t m = initType.getDimSize(0), n = initType.getDimSize(1),
                k = lhsType.getDimSize(op.getLhsKDim());
  Type acc = initType.getElementType(), in = lhsType.getElementType();
  const bool isFloat = isa<FloatType>(acc);
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
  auto ifOp = scf::IfOp::create(b, loc, rowsAreUnitStride, /*withElseRegion=*/true);

  OpBuilder fast = ifOp.getThenBodyBuilder();
  Value rhs = viewWithUnitInnerStride(fast, loc, op.getRhs(), rhsMetadata);
  Value init = viewWithUnitInnerStride(fast, loc, op.getInit(), initMetadata);
  auto index = [&](int64_t i) { return arith::ConstantIndexOp::create(fast, loc, i).getResult(); };
  auto rowType = VectorType::get({n}, acc);
  Value zero = index(0);
  SmallVector<Value> rowsOfB, rowsOfC;
  for (int64_t l = 0; l < k; ++l) {
    Value row = vector::LoadOp::create(fast, loc, VectorType::get({n}, in), rhs,
                                       ValueRange{index(l), zero});
    if (!isFloat)
      row = arith::ExtSIOp::create(fast, loc, rowType, row);
    rowsOfB.push_back(row);
  }
  for (int64_t i = 0; i < m; ++i)
    rowsOfC.push_back(op.getOverwrite()
                          ? arith::ConstantOp::create(fast, loc, fast.getZeroAttr(rowType))
                                .getResult()
                          : vector::LoadOp::create(fast, loc, rowType, init,
                                                   ValueRange{index(i), zero})
                                .getResult());
  for (int64_t i = 0; i < m; ++i)
    for (int64_t l = 0; l < k; ++l) {
      SmallVector<Value> at = op.getTransposeLhs() ? SmallVector<Value>{index(l), index(i)}
                                                   : SmallVector<Value>{index(i), index(l)};
      Value a = memref::LoadOp::create(fast, loc, op.getLhs(), at);
      if (!isFloat)
        a = arith::ExtSIOp::create(fast, loc, acc, a);
      Value broadcast = vector::BroadcastOp::create(fast, loc, rowType, a);
      rowsOfC[i] = isFloat
                       ? vector::FMAOp::create(fast, loc, broadcast, rowsOfB[l], rowsOfC[i])
                             .getResult()
                       : arith::AddIOp::create(
                             fast, loc, rowsOfC[i],
                             arith::MulIOp::create(fast, loc, broadcast, rowsOfB[l]))
                             .getResult();
    }
  for (int64_t i = 0; i < m; ++i)
    vector::StoreOp::create(fast, loc, rowsOfC[i], init, ValueRange{index(i), zero});

  OpBuilder general = ifOp.getElseBodyBuilder();
  emitLoopMatmul(general, op);
}

struct MatmulToLibmipsCall : OpRewritePattern<mips::MatmulOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(mips::MatmulOp op,
                                PatternRewriter &rewriter) const override {
    if (!isa<MemRefType>(op.getInit().getType()))
      return rewriter.notifyMatchFailure(op, "on tensors: bufferize first");
    if (op.getInlined())
      emitInlineMatmul(rewriter, op);
    else if (failed(emitLibmipsCall(rewriter, op)))
      return failure();
    rewriter.eraseOp(op);
    return success();
  }
};

struct ConvertMipsToLibmipsPass
    : mips::impl::ConvertMipsToLibmipsBase<ConvertMipsToLibmipsPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<mips::MatmulOp> matmuls;
    getOperation().walk([&](mips::MatmulOp op) { matmuls.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (mips::MatmulOp op : matmuls) {
      if (!isa<MemRefType>(op.getInit().getType())) {
        op.emitOpError("on tensors cannot call libmips; bufferize it first");
        return signalPassFailure();
      }
      rewriter.setInsertionPoint(op);
      if (op.getInlined())
        emitInlineMatmul(rewriter, op);
      else if (failed(emitLibmipsCall(rewriter, op)))
        return signalPassFailure();
      rewriter.eraseOp(op);
    }
  }
};

} // namespace

void mlir::mips::populateMipsToLibmipsPatterns(RewritePatternSet &patterns) {
  patterns.add<MatmulToLibmipsCall>(patterns.getContext());
}
