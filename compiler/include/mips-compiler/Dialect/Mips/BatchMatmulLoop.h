/* SPDX-License-Identifier: Apache-2.0 */
//===- BatchMatmulLoop.h - mips.batch_matmul as a loop of matmuls -*- C++ -*-===//

#ifndef MIPS_DIALECT_MIPS_BATCHMATMULLOOP_H
#define MIPS_DIALECT_MIPS_BATCHMATMULLOOP_H

#include "mips-compiler/Dialect/Mips/MipsOps.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace mips {

/// Extent `dim` of a tensor or memref, as a constant when static.
OpFoldResult getMixedExtent(OpBuilder &b, Location loc, Value shaped, int64_t dim);

/// Entry `index` of the leading (batch) dimension of a 3-D tensor or memref, as a
/// 2-D view (a rank-reducing slice).
Value sliceBatchEntry(OpBuilder &b, Location loc, Value batched, OpFoldResult index);

/// Replaces `op` by one mips.matmul per batch entry on 2-D views of its operands
/// (rank-reducing slices, no copies): an scf.for over the batch, or a single
/// matmul for a statically unit batch. A shared (rank-2) operand is used whole by
/// every entry. On tensors the loop carries init and inserts each entry's product.
/// Returns the matmuls it created (none when a static extent is 0: then only an
/// overwrite with K = 0 does anything, a zero fill of init).
SmallVector<MatmulOp> expandBatchMatmul(RewriterBase &rewriter, BatchMatmulOp op);

} // namespace mips
} // namespace mlir

#endif // MIPS_DIALECT_MIPS_BATCHMATMULLOOP_H
