// SPDX-License-Identifier: Apache-2.0
//===- MipsOps.cpp - mips dialect operations --------------------*- C++ -*-===//

#include "mips-compiler/Dialect/Mips/MipsOps.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::mips;

#define GET_OP_CLASSES
#include "mips-compiler/Dialect/Mips/MipsOps.cpp.inc"

bool mlir::mips::isMatmulElementTypes(Type lhs, Type rhs, Type acc) {
  // Signless i8: the product sign-extends, which linalg's cast_signed also does.
  return (lhs.isF32() && rhs.isF32() && acc.isF32()) ||
         (lhs.isSignlessInteger(8) && rhs.isSignlessInteger(8) && acc.isSignlessInteger(32));
}

bool mlir::mips::isPlainStridedMemRef(MemRefType type) {
  return type.isStrided() && !type.getMemorySpace();
}

//===----------------------------------------------------------------------===//
// MatmulOp
//===----------------------------------------------------------------------===//

/// True if two extents can describe the same dimension at run time.
static bool compatibleExtents(int64_t a, int64_t b) {
  return ShapedType::isDynamic(a) || ShapedType::isDynamic(b) || a == b;
}

static std::string formatExtent(int64_t extent) {
  return ShapedType::isDynamic(extent) ? "?" : std::to_string(extent);
}

/// What mips.matmul and mips.batch_matmul both require: tensors or memrefs
/// throughout (and a result only on tensors), libmips's element types, and
/// buffers in the default memory space.
static LogicalResult verifyOperandKinds(Operation *op, ShapedType lhsType, ShapedType rhsType,
                                        ShapedType initType, Value result) {
  bool onTensors = isa<RankedTensorType>(initType);
  if (isa<RankedTensorType>(lhsType) != onTensors || isa<RankedTensorType>(rhsType) != onTensors)
    return op->emitOpError("expects operands that are all tensors or all memrefs");
  if (onTensors) {
    if (!result || result.getType() != initType)
      return op->emitOpError("on tensors expects a result of the init type ") << initType;
  } else if (result) {
    return op->emitOpError("on memrefs writes into init and has no result");
  }

  Type lhsElement = lhsType.getElementType();
  Type rhsElement = rhsType.getElementType();
  Type initElement = initType.getElementType();
  if (!isMatmulElementTypes(lhsElement, rhsElement, initElement))
    return op->emitOpError("expects element types f32 x f32 -> f32 or "
                           "i8 x i8 -> i32, got ")
           << lhsElement << " x " << rhsElement << " -> " << initElement;

  for (ShapedType type : {lhsType, rhsType, initType})
    if (auto memref = dyn_cast<MemRefType>(type); memref && memref.getMemorySpace())
      return op->emitOpError("expects memrefs in the default memory space, as libmips takes "
                             "plain pointers; got ")
             << memref;
  return success();
}

/// Checks that M x K times K x N fits an init whose matrix dimensions are
/// `initM`, `initN`.
static LogicalResult verifyExtents(Operation *op, int64_t m, int64_t k, int64_t rhsK, int64_t n,
                                   int64_t initM, int64_t initN) {
  if (!compatibleExtents(k, rhsK))
    return op->emitOpError("has mismatched reduction sizes: lhs gives K = ")
           << formatExtent(k) << ", rhs gives K = " << formatExtent(rhsK);
  if (!compatibleExtents(m, initM) || !compatibleExtents(n, initN))
    return op->emitOpError("expects init of shape ")
           << formatExtent(m) << "x" << formatExtent(n) << ", got " << formatExtent(initM)
           << "x" << formatExtent(initN);
  return success();
}

LogicalResult MatmulOp::verify() {
  auto lhsType = cast<ShapedType>(getLhs().getType());
  auto rhsType = cast<ShapedType>(getRhs().getType());
  auto initType = cast<ShapedType>(getInit().getType());
  if (lhsType.getRank() != 2 || rhsType.getRank() != 2 || initType.getRank() != 2)
    return emitOpError("expects rank-2 operands, got ranks ")
           << lhsType.getRank() << ", " << rhsType.getRank() << " and "
           << initType.getRank();
  if (failed(verifyOperandKinds(*this, lhsType, rhsType, initType, getResult())))
    return failure();

  if (getInlined() &&
      !(lhsType.hasStaticShape() && rhsType.hasStaticShape() && initType.hasStaticShape()))
    return emitOpError("with 'inlined' expects static shapes: inline code is unrolled");
  if (getInlined() && (lhsType.getNumElements() == 0 || rhsType.getNumElements() == 0 ||
                       initType.getNumElements() == 0))
    return emitOpError("with 'inlined' expects nonzero extents: inline code holds rows "
                       "in vectors, and no vector has 0 elements");

  return verifyExtents(*this, lhsType.getDimSize(getLhsMDim()), lhsType.getDimSize(getLhsKDim()),
                       rhsType.getDimSize(getRhsKDim()), rhsType.getDimSize(getRhsNDim()),
                       initType.getDimSize(0), initType.getDimSize(1));
}

/// On tensors the ops are pure; on memrefs they read A and B (and C unless
/// overwriting) and write C.
template <typename OpTy>
static void getMatmulEffects(
    OpTy op, SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>> &effects) {
  if (op.getResult())
    return;
  effects.emplace_back(MemoryEffects::Read::get(), &op.getLhsMutable(),
                       SideEffects::DefaultResource::get());
  effects.emplace_back(MemoryEffects::Read::get(), &op.getRhsMutable(),
                       SideEffects::DefaultResource::get());
  if (!op.getOverwrite())
    effects.emplace_back(MemoryEffects::Read::get(), &op.getInitMutable(),
                         SideEffects::DefaultResource::get());
  effects.emplace_back(MemoryEffects::Write::get(), &op.getInitMutable(),
                       SideEffects::DefaultResource::get());
}

/// The result has the shape of init, which is known at run time.
template <typename OpTy>
static LogicalResult reifyMatmulResultShapes(OpTy op, OpBuilder &builder,
                                             ReifiedRankedShapedTypeDims &reifiedReturnShapes) {
  if (op.getResult())
    reifiedReturnShapes.push_back(tensor::getMixedSizes(builder, op.getLoc(), op.getInit()));
  return success();
}

void MatmulOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>> &effects) {
  getMatmulEffects(*this, effects);
}

LogicalResult
MatmulOp::reifyResultShapes(OpBuilder &builder,
                            ReifiedRankedShapedTypeDims &reifiedReturnShapes) {
  return reifyMatmulResultShapes(*this, builder, reifiedReturnShapes);
}

//===----------------------------------------------------------------------===//
// BatchMatmulOp
//===----------------------------------------------------------------------===//

LogicalResult BatchMatmulOp::verify() {
  auto lhsType = cast<ShapedType>(getLhs().getType());
  auto rhsType = cast<ShapedType>(getRhs().getType());
  auto initType = cast<ShapedType>(getInit().getType());
  auto isMatrixOrBatch = [](ShapedType type) { return type.getRank() == 2 || type.getRank() == 3; };
  if (initType.getRank() != 3 || !isMatrixOrBatch(lhsType) || !isMatrixOrBatch(rhsType))
    return emitOpError("expects a rank-3 init and rank-3 (or shared rank-2) lhs and rhs, got "
                       "ranks ")
           << lhsType.getRank() << ", " << rhsType.getRank() << " and " << initType.getRank();
  if (failed(verifyOperandKinds(*this, lhsType, rhsType, initType, getResult())))
    return failure();
  const int64_t batch = initType.getDimSize(0);
  for (auto [name, type] : {std::pair{"lhs", lhsType}, std::pair{"rhs", rhsType}})
    if (type.getRank() == 3 && !compatibleExtents(type.getDimSize(0), batch))
      return emitOpError("expects ")
             << name << " with a batch of " << formatExtent(batch) << " (init's), got "
             << formatExtent(type.getDimSize(0));
  return verifyExtents(*this, lhsType.getDimSize(getLhsMDim()), lhsType.getDimSize(getLhsKDim()),
                       rhsType.getDimSize(getRhsKDim()), rhsType.getDimSize(getRhsNDim()),
                       initType.getDimSize(1), initType.getDimSize(2));
}

void BatchMatmulOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>> &effects) {
  getMatmulEffects(*this, effects);
}

LogicalResult
BatchMatmulOp::reifyResultShapes(OpBuilder &builder,
                                 ReifiedRankedShapedTypeDims &reifiedReturnShapes) {
  return reifyMatmulResultShapes(*this, builder, reifiedReturnShapes);
}
