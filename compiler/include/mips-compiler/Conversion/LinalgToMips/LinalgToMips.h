/* SPDX-License-Identifier: Apache-2.0 */
//===- LinalgToMips.h - linalg matmuls to mips.matmul -----------*- C++ -*-===//

#ifndef MIPS_CONVERSION_LINALGTOMIPS_LINALGTOMIPS_H
#define MIPS_CONVERSION_LINALGTOMIPS_LINALGTOMIPS_H

#include "mips-compiler/Dialect/Mips/MipsDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
class RewritePatternSet;

namespace mips {

#define GEN_PASS_DECL_CONVERTLINALGTOMIPS
#include "mips-compiler/Conversion/Passes.h.inc"

/// Patterns that rewrite the linalg matmuls libmips can run (matmul,
/// batch_matmul, matvec, vecmat, quantized_matmul, quantized_batch_matmul)
/// into mips.matmul.
void populateLinalgToMipsPatterns(RewritePatternSet &patterns);

} // namespace mips
} // namespace mlir

#endif // MIPS_CONVERSION_LINALGTOMIPS_LINALGTOMIPS_H
