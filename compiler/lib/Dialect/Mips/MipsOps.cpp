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

LogicalResult MatmulOp::verify() {
  auto lhsType = cast<ShapedType>(getLhs().getType());
  auto rhsType = cast<ShapedType>(getRhs().getType());
  auto initType = cast<ShapedType>(getInit().getType());
  bool onTensors = isa<RankedTensorType>(initType);
  if (isa<RankedTensorType>(lhsType) != onTensors || isa<RankedTensorType>(rhsType) != onTensors)
    return emitOpError("expects operands that are all tensors or all memrefs");
  if (lhsType.getRank() != 2 || rhsType.getRank() != 2 || initType.getRank() != 2)
    return emitOpError("expects rank-2 operands, got ranks ")
           << lhsType.getRank() << ", " << rhsType.getRank() << " and "
           << initType.getRank();
  if (onTensors) {
    if (!getResult() || getResult().getType() != initType)
      return emitOpError("on tensors expects a result of the init type ") << initType;
  } else if (getResult()) {
    return emitOpError("on memrefs writes into init and has no result");
  }

  Type lhsElement = lhsType.getElementType();
  Type rhsElement = rhsType.getElementType();
  Type initElement = initType.getElementType();
  if (!isMatmulElementTypes(lhsElement, rhsElement, initElement))
    return emitOpError("expects element types f32 x f32 -> f32 or "
                       "i8 x i8 -> i32, got ")
           << lhsElement << " x " << rhsElement << " -> " << initElement;

  for (ShapedType type : {lhsType, rhsType, initType})
    if (auto memref = dyn_cast<MemRefType>(type); memref && memref.getMemorySpace())
      return emitOpError("expects memrefs in the default memory space, as libmips takes "
                         "plain pointers; got ")
             << memref;

  if (getInlined() &&
      !(lhsType.hasStaticShape() && rhsType.hasStaticShape() && initType.hasStaticShape()))
    return emitOpError("with 'inlined' expects static shapes: inline code is unrolled");
  if (getInlined() && (lhsType.getNumElements() == 0 || rhsType.getNumElements() == 0 ||
                       initType.getNumElements() == 0))
    return emitOpError("with 'inlined' expects nonzero extents: inline code holds rows "
                       "in vectors, and no vector has 0 elements");

  int64_t m = lhsType.getDimSize(getLhsMDim());
  int64_t k = lhsType.getDimSize(getLhsKDim());
  int64_t rhsK = rhsType.getDimSize(getRhsKDim());
  int64_t n = rhsType.getDimSize(getRhsNDim());
  if (!compatibleExtents(k, rhsK))
    return emitOpError("has mismatched reduction sizes: lhs gives K = ")
           << formatExtent(k) << ", rhs gives K = " << formatExtent(rhsK);
  if (!compatibleExtents(m, initType.getDimSize(0)) ||
      !compatibleExtents(n, initType.getDimSize(1)))
    return emitOpError("expects init of shape ")
           << formatExtent(m) << "x" << formatExtent(n) << ", got "
           << formatExtent(initType.getDimSize(0)) << "x"
           << formatExtent(initType.getDimSize(1));
  return success();
}

void MatmulOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>> &effects) {
  // On tensors the op is pure; on memrefs it reads A and B (and C unless
  // overwriting) and writes C.
  if (getResult())
    return;
  effects.emplace_back(MemoryEffects::Read::get(), &getLhsMutable(),
                       SideEffects::DefaultResource::get());
  effects.emplace_back(MemoryEffects::Read::get(), &getRhsMutable(),
                       SideEffects::DefaultResource::get());
  if (!getOverwrite())
    effects.emplace_back(MemoryEffects::Read::get(), &getInitMutable(),
                         SideEffects::DefaultResource::get());
  effects.emplace_back(MemoryEffects::Write::get(), &getInitMutable(),
                       SideEffects::DefaultResource::get());
}

LogicalResult
MatmulOp::reifyResultShapes(OpBuilder &builder,
                            ReifiedRankedShapedTypeDims &reifiedReturnShapes) {
  // The result has the shape of init, which is known at run time.
  if (getResult())
    reifiedReturnShapes.push_back(tensor::getMixedSizes(builder, getLoc(), getInit()));
  return success();
}
