// SPDX-License-Identifier: Apache-2.0
//===- BufferizableOpInterfaceImpl.cpp - mips.matmul bufferization -*- C++ -*-===//
//
// Bufferization only swaps tensors for buffers: mips.matmul on tensors becomes
// mips.matmul on memrefs, which writes into the init's buffer. What the call
// looks like is convert-mips-to-libmips's business.
//
//===----------------------------------------------------------------------===//

#include "mips-compiler/Bufferization/BufferizableOpInterfaceImpl.h"

#include "mips-compiler/Dialect/Mips/MipsOps.h"
#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Dialect/Bufferization/IR/DstBufferizableOpInterfaceImpl.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace mlir::bufferization;

namespace {

struct MatmulOpInterface
    : DstBufferizableOpInterfaceExternalModel<MatmulOpInterface, mips::MatmulOp> {
  /// With `overwrite`, libmips never reads C, so neither does the op.
  bool bufferizesToMemoryRead(Operation *op, OpOperand &operand,
                              const AnalysisState &state) const {
    auto matmul = cast<mips::MatmulOp>(op);
    return !(matmul.getOverwrite() && &operand == &matmul.getInitMutable());
  }

  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    auto matmul = cast<mips::MatmulOp>(op);
    FailureOr<Value> lhs = getBuffer(rewriter, matmul.getLhs(), options, state);
    FailureOr<Value> rhs = getBuffer(rewriter, matmul.getRhs(), options, state);
    FailureOr<Value> init = getBuffer(rewriter, matmul.getInit(), options, state);
    if (failed(lhs) || failed(rhs) || failed(init))
      return failure();
    rewriter.setInsertionPoint(op);
    mips::MatmulOp::create(rewriter, op->getLoc(), /*result=*/Type(), *lhs, *rhs, *init,
                           matmul.getTransposeLhs(), matmul.getTransposeRhs(),
                           matmul.getOverwrite(), matmul.getInlined());
    replaceOpWithBufferizedValues(rewriter, op, *init);
    return success();
  }
};

} // namespace

void mlir::mips::registerBufferizableOpInterfaceExternalModels(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, mips::MipsDialect *) {
    mips::MatmulOp::attachInterface<MatmulOpInterface>(*ctx);
  });
}
