// SPDX-License-Identifier: Apache-2.0
//===- ModelChecks.h - What mips-compile refuses, in one line each ---------===//

#ifndef MIPS_COMPILER_TOOLS_MODELCHECKS_H
#define MIPS_COMPILER_TOOLS_MODELCHECKS_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace mlir {
class Diagnostic;
namespace mips {

/// Replaces MLIR's parser errors for operations of dialects mips-compile does not
/// know (PyTorch, StableHLO, ...) with one line naming the dialect and what to do.
/// Succeeds if it did (the original error is then dropped).
LogicalResult explainForeignDialect(Diagnostic &diag, llvm::SourceMgr &sourceMgr);

/// Reports, located, what a parsed model holds that mips-compile refuses: function
/// names the runtime or libmips define, memref layouts without strides, TOSA
/// matmul zero points that are not constants. Fails if it reported any.
LogicalResult checkModelForMipsCompile(ModuleOp module);

} // namespace mips
} // namespace mlir

#endif // MIPS_COMPILER_TOOLS_MODELCHECKS_H
