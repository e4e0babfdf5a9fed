// SPDX-License-Identifier: Apache-2.0
//===- BufferizableOpInterfaceImpl.cpp - mips.matmul bufferization -*- C++ -*-===//
//
// Bufferization only swaps tensors for buffers: mips.matmul (batch_matmul) on
// tensors becomes the same op on memrefs, which writes into the init's buffer.
// What the call looks like is convert-mips-to-libmips's business.
//
//===----------------------------------------------------------------------===//

#include "mips-compiler/Bufferization/BufferizableOpInterfaceImpl.h"

#include "mips-compiler/Dialect/Mips/MipsOps.h"
#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Dialect/Bufferization/IR/DstBufferizableOpInterfaceImpl.h"
#include "mlir/IR/DialectRegistry.h"

#include <type_traits>

using namespace mlir;
using namespace mlir::bufferization;

namespace {

/// mips.matmul and mips.batch_matmul: the same op on buffers, writing into init's.
template <typename OpTy>
struct MatmulOpInterface
    : DstBufferizableOpInterfaceExternalModel<MatmulOpInterface<OpTy>, OpTy> {
  /// With `overwrite`, libmips never reads C, so neither does the op.
  bool bufferizesToMemoryRead(Operation *op, OpOperand &operand,
                              const AnalysisState &state) const {
    auto matmul = cast<OpTy>(op);
    return !(matmul.getOverwrite() && &operand == &matmul.getInitMutable());
  }

  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    auto matmul = cast<OpTy>(op);
    FailureOr<Value> lhs = getBuffer(rewriter, matmul.getLhs(), options, state);
    FailureOr<Value> rhs = getBuffer(rewriter, matmul.getRhs(), options, state);
    FailureOr<Value> init = getBuffer(rewriter, matmul.getInit(), options, state);
    if (failed(lhs) || failed(rhs) || failed(init))
      return failure();
    rewriter.setInsertionPoint(op);
    if constexpr (std::is_same_v<OpTy, mips::MatmulOp>)
      mips::MatmulOp::create(rewriter, op->getLoc(), /*result=*/Type(), *lhs, *rhs, *init,
                             matmul.getTransposeLhs(), matmul.getTransposeRhs(),
                             matmul.getOverwrite(), matmul.getInlined());
    else
      mips::BatchMatmulOp::create(rewriter, op->getLoc(), /*result=*/Type(), *lhs, *rhs, *init,
                                  matmul.getTransposeLhs(), matmul.getTransposeRhs(),
                                  matmul.getOverwrite());
    replaceOpWithBufferizedValues(rewriter, op, *init);
    return success();
  }
};

} // namespace

void mlir::mips::registerBufferizableOpInterfaceExternalModels(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, mips::MipsDialect *) {
    mips::MatmulOp::attachInterface<MatmulOpInterface<mips::MatmulOp>>(*ctx);
    mips::BatchMatmulOp::attachInterface<MatmulOpInterface<mips::BatchMatmulOp>>(*ctx);
  });
}
