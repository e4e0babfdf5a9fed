/* SPDX-License-Identifier: Apache-2.0 */
//===- Contractions.h - which linalg contractions libmips runs --*- C++ -*-===//
//
// What mips-raise-contractions, mips-decompose-quantized-matmuls and
// convert-linalg-to-mips ask of a contraction, answered in one place.
//
//===----------------------------------------------------------------------===//

#ifndef MIPS_DIALECT_MIPS_CONTRACTIONS_H
#define MIPS_DIALECT_MIPS_CONTRACTIONS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace mips {

/// How a (batch) matmul's operands are laid out.
struct MatmulLayout {
  bool transposeLhs = false, transposeRhs = false;
  bool lhsBatched = false, rhsBatched = false; // batch_matmul: false = broadcast
};

/// Matches the indexing maps of a matmul (dims m, n, k) or batch matmul
/// (dims b, m, n, k): the output is (b?, m, n); each input is (b?, m, k) or
/// (b?, k, m) for the lhs and (b?, k, n) or (b?, n, k) for the rhs.
FailureOr<MatmulLayout> matchMatmulLayout(ArrayRef<AffineMap> maps, bool batched,
                                          MLIRContext *ctx);

/// Checks what libmips needs of a contraction: its element types, and signed
/// extension of integers (libmips sign-extends int8); a failure says why.
LogicalResult checkLibmipsContraction(PatternRewriter &rewriter, linalg::LinalgOp op,
                                      bool signedCast);

} // namespace mips
} // namespace mlir

#endif // MIPS_DIALECT_MIPS_CONTRACTIONS_H
