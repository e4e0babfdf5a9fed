// SPDX-License-Identifier: Apache-2.0
//===- Remarks.cpp - where a model's time will go, as remarks --*- C++ -*-===//
//
// A model compiles whatever it contains, but only matmuls that reach libmips
// and code LLVM can vectorize run fast. These remarks say, at the op's
// location, which path each costly op took and why the slow ones did.
//
//===----------------------------------------------------------------------===//

#include "mips-compiler/Transforms/Passes.h"

#include "mips-compiler/Conversion/ConvToMatmul/ConvToMatmul.h"
#include "mips-compiler/Dialect/Mips/MipsOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/ADT/STLExtras.h"

namespace mlir {
namespace mips {
#define GEN_PASS_DEF_MIPSREMARKS
#include "mips-compiler/Transforms/Passes.h.inc"
} // namespace mips
} // namespace mlir

using namespace mlir;

namespace {

/// Math ops LLVM lowers to vector instructions of its own (no libm call).
bool isNativeMath(Operation *op) {
  return isa<math::SqrtOp, math::RsqrtOp, math::AbsFOp, math::AbsIOp, math::FmaOp,
             math::FloorOp, math::CeilOp, math::TruncOp, math::RoundOp, math::RoundEvenOp,
             math::CopySignOp, math::CountLeadingZerosOp, math::CountTrailingZerosOp,
             math::CtPopOp, math::IPowIOp, math::FPowIOp>(op);
}

/// A type as the IR prints it (a diagnostic would quote it).
std::string text(Type type) {
  std::string out;
  llvm::raw_string_ostream os(out);
  os << type;
  return out;
}

template <typename OpTy>
std::string shapeOf(OpTy op) {
  auto lhs = cast<ShapedType>(op.getLhs().getType());
  auto rhs = cast<ShapedType>(op.getRhs().getType());
  auto init = cast<ShapedType>(op.getInit().getType());
  auto dim = [](ShapedType type, unsigned d) {
    return type.isDynamicDim(d) ? std::string("?") : std::to_string(type.getDimSize(d));
  };
  std::string text;
  llvm::raw_string_ostream os(text);
  os << dim(lhs, op.getLhsMDim()) << "x" << dim(rhs, op.getRhsNDim()) << "x"
     << dim(lhs, op.getLhsKDim()) << " (MxNxK) " << lhs.getElementType() << " x "
     << rhs.getElementType() << " -> " << init.getElementType();
  return text;
}

struct MipsRemarksPass : mips::impl::MipsRemarksBase<MipsRemarksPass> {
  using Base::Base;

  void runOnOperation() override {
    getOperation()->walk([&](Operation *op) {
      if (auto matmul = dyn_cast<mips::MatmulOp>(op)) {
        if (matmul.getInlined())
          op->emitRemark() << "matmul " << shapeOf(matmul)
                           << " runs as inline vector code (small and static: cheaper than a call)";
        else
          op->emitRemark() << "matmul " << shapeOf(matmul) << " reaches libmips";
        return;
      }
      if (auto batch = dyn_cast<mips::BatchMatmulOp>(op)) {
        auto init = cast<ShapedType>(batch.getInit().getType());
        op->emitRemark() << "batch of "
                         << (init.isDynamicDim(0) ? std::string("?")
                                                  : std::to_string(init.getDimSize(0)))
                         << " matmuls " << shapeOf(batch) << " reaches libmips";
        return;
      }
      if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
        if (isa<linalg::DepthwiseConv2DNhwcHwcOp>(op)) {
          if (std::optional<StringRef> why = mips::whyDepthwiseStaysLoops(op))
            op->emitRemark() << op->getName() << " runs as loops: " << *why;
          else
            op->emitRemark() << op->getName()
                             << " is not a matmul: it becomes vector code along its channels "
                                "(when they are contiguous)";
          return;
        }
        if (isa<linalg::DepthwiseConv2DNchwChwOp>(op)) {
          if (std::optional<StringRef> why = mips::whyDepthwiseNchwStaysLoops(op))
            op->emitRemark() << op->getName() << " runs as loops: " << *why;
          else
            op->emitRemark() << op->getName()
                             << " is not a matmul: it becomes vector code over each "
                                "channel's flattened image";
          return;
        }
        if (linalg::isaConvolutionOpInterface(linalgOp)) {
          op->emitRemark() << op->getName() << " does not reach libmips: "
                           << mips::whyConvStaysLoops(linalgOp);
          return;
        }
        // Named contractions only: a generic that is not a matmul is ordinary
        // elementwise or reduction code.
        if (!isa<linalg::GenericOp>(op) && linalg::isaContractionOpInterface(linalgOp)) {
          op->emitRemark() << op->getName() << " ("
                           << text(getElementTypeOrSelf(linalgOp.getDpsInputs()[0])) << " x "
                           << text(getElementTypeOrSelf(linalgOp.getDpsInputs()[1])) << " -> "
                           << text(getElementTypeOrSelf(linalgOp.getDpsInits()[0]))
                           << ") does not reach libmips: convert-linalg-to-mips has no "
                              "matmul form for it (libmips multiplies f32, and int8 into "
                              "int32); it runs as loops";
        }
        return;
      }
      if (op->getDialect() && op->getDialect()->getNamespace() == "math" && !isNativeMath(op)) {
        if (precise)
          op->emitRemark() << op->getName()
                           << " is a libm call per element (--mips-precise-math)";
        else if (!mips::isApproximatedMath(op))
          op->emitRemark() << op->getName() << " on "
                           << text(getElementTypeOrSelf(op->getResultTypes()[0]))
                           << " is a libm call per element: no polynomial for it, so its "
                              "loop stays scalar";
      }
    });
  }
};

} // namespace
