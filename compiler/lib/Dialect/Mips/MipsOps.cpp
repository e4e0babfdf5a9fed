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
  auto lhsType = cast<RankedTensorType>(getLhs().getType());
  auto rhsType = cast<RankedTensorType>(getRhs().getType());
  auto initType = cast<RankedTensorType>(getInit().getType());
  if (lhsType.getRank() != 2 || rhsType.getRank() != 2 || initType.getRank() != 2)
    return emitOpError("expects rank-2 operands, got ranks ")
           << lhsType.getRank() << ", " << rhsType.getRank() << " and "
           << initType.getRank();
  if (getResult().getType() != initType)
    return emitOpError("expects the result type to equal the init type ")
           << initType << ", got " << getResult().getType();

  Type lhsElement = lhsType.getElementType();
  Type rhsElement = rhsType.getElementType();
  Type initElement = initType.getElementType();
  bool isF32 = lhsElement.isF32() && rhsElement.isF32() && initElement.isF32();
  bool isI8I32 = lhsElement.isSignlessInteger(8) &&
                 rhsElement.isSignlessInteger(8) &&
                 initElement.isSignlessInteger(32);
  if (!isF32 && !isI8I32)
    return emitOpError("expects element types f32 x f32 -> f32 or "
                       "i8 x i8 -> i32, got ")
           << lhsElement << " x " << rhsElement << " -> " << initElement;

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

LogicalResult
MatmulOp::reifyResultShapes(OpBuilder &builder,
                            ReifiedRankedShapedTypeDims &reifiedReturnShapes) {
  // The result has the shape of init, which is known at run time.
  reifiedReturnShapes.push_back(
      tensor::getMixedSizes(builder, getLoc(), getInit()));
  return success();
}
