/* SPDX-License-Identifier: Apache-2.0 */
//===- VectorCopies.h - contiguous runs copied with vectors -----*- C++ -*-===//
//
// Copies of contiguous runs of a tensor into another with vector transfers, for
// whoever writes such copies (today the im2col of convert-conv-to-matmul).
//
//===----------------------------------------------------------------------===//

#ifndef MIPS_UTILS_VECTORCOPIES_H
#define MIPS_UTILS_VECTORCOPIES_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/Value.h"

namespace mlir {
namespace mips {

/// Copies the `length` contiguous elements of `input` at `from` (the last index
/// runs along them) into `patches` at `to` as one fixed vector; returns the new
/// patches tensor. On buffers these are vector loads and stores; a scalar copy of
/// the same run, which LLVM unrolls for a static length, is never vectorized by
/// it. Targets with scalable vectors use copyRunsScalable instead, for the
/// runs long enough to pay for its loop.
Value copyRun(OpBuilder &b, Location loc, Value input, ValueRange from, Value patches,
              ValueRange to, int64_t length);

/// The index list of a run's first element, from the outer loops' indices, the
/// inner loop's and the run's offset.
using RunIndices =
    llvm::function_ref<SmallVector<Value>(OpBuilder &, Location, ValueRange, Value, Value)>;

/// Copies runs of `run` contiguous elements (along the last dim of `source` and of
/// `patches`), one for each point of a loop nest of `outerBounds` and an inner
/// loop of `innerBound`, with vectors of `scalableLanes` x vscale 32-bit lanes (a
/// "register" below; LMUL 1 with the pipeline's 2 lanes). Which of three loop nests
/// runs is chosen once, by VLEN:
///  - a run shorter than a register: one masked register;
///  - a run longer than one register and at most two: one masked group of two (at
///    VLEN 1024, an NHWC 3x3 conv's 48 floats with 16 channels): the same vector cost
///    as two registers, and half the loop's scalar work, which bounds the conv's count
///    at that VLEN;
///  - else (exactly one register, or more than two) whole registers, then, if some
///    remain, the run's last whole register (overlapping the one before: copied
///    twice, but with no mask).
/// Each vector of the run goes to every point of the inner loop in turn, so that the
/// innermost loop only steps two pointers. (A version's nest is its own: the masked
/// loops' addresses were multiplied, not stepped, when they sat beside the others.) One
/// object then moves a run in as few register groups as each VLEN allows, where a
/// fixed vector of the run is priced for the smallest VLEN (16 floats are LMUL 4 at
/// every VLEN: a third of a 3x3 conv's count at VLEN 1024). Returns the new patches.
Value copyRunsScalable(OpBuilder &rewriter, Location loc, Value source, Value patches,
                       ArrayRef<int64_t> outerBounds, int64_t innerBound, int64_t run,
                       int64_t scalableLanes, RunIndices from, RunIndices to);

} // namespace mips
} // namespace mlir

#endif // MIPS_UTILS_VECTORCOPIES_H
