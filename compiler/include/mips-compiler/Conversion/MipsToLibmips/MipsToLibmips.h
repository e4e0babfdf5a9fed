/* SPDX-License-Identifier: Apache-2.0 */
//===- MipsToLibmips.h - mips.matmul to libmips calls -----------*- C++ -*-===//

#ifndef MIPS_CONVERSION_MIPSTOLIBMIPS_MIPSTOLIBMIPS_H
#define MIPS_CONVERSION_MIPSTOLIBMIPS_MIPSTOLIBMIPS_H

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
class RewritePatternSet;

namespace mips {

#define GEN_PASS_DECL_CONVERTMIPSTOLIBMIPS
#include "mips-compiler/Conversion/Passes.h.inc"

/// Patterns that turn mips.matmul (and, with `batchedCalls`, mips.batch_matmul)
/// on memrefs into libmips ABI calls with their shape and status checks. They
/// declare the callees in the enclosing module, with the runtime names of the ABI
/// minor it records (`mips.libmips_abi_minor`), which must be at least 2 when
/// `anyOrder` passes MIPS_MATMUL_ANY_ORDER, `packConstantWeights` packs constant
/// weights once for packed calls, or a batch becomes one batched call. Matmuls marked
/// `inlined` are convert-mips-to-vector's.
void populateMipsToLibmipsPatterns(RewritePatternSet &patterns, bool anyOrder = false,
                                   bool packConstantWeights = false, bool batchedCalls = false);

} // namespace mips
} // namespace mlir

#endif // MIPS_CONVERSION_MIPSTOLIBMIPS_MIPSTOLIBMIPS_H
