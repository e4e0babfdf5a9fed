/* SPDX-License-Identifier: Apache-2.0 */
//===- Passes.h - mips compiler passes --------------------------*- C++ -*-===//

#ifndef MIPS_PASSES_H
#define MIPS_PASSES_H

#include "mips-compiler/Dialect/Mips/MipsDialect.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
class RewritePatternSet;

namespace mips {

#define GEN_PASS_DECL
#include "mips-compiler/Passes.h.inc"

/// Patterns that rewrite convertible linalg.matmul ops into mips.matmul.
void populateLinalgToMipsPatterns(RewritePatternSet &patterns);

#define GEN_PASS_REGISTRATION
#include "mips-compiler/Passes.h.inc"

} // namespace mips
} // namespace mlir

#endif // MIPS_PASSES_H
