/* SPDX-License-Identifier: Apache-2.0 */
//===- ConvToMatmul.h - convolutions as matmuls -----------------*- C++ -*-===//

#ifndef MIPS_CONVERSION_CONVTOMATMUL_CONVTOMATMUL_H
#define MIPS_CONVERSION_CONVTOMATMUL_CONVTOMATMUL_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Pass/Pass.h"

#include <string>

namespace mlir {
class RewritePatternSet;

namespace mips {

/// The default bound of an im2col buffer: 4 MiB keeps the blocks of a 224x224
/// network's convolutions over 1800 rows long, as long as libmips needs.
inline constexpr int64_t kDefaultIm2colBytes = 4 << 20;

#define GEN_PASS_DECL_CONVERTCONVTOMATMUL
#include "mips-compiler/Conversion/Passes.h.inc"

/// Patterns that rewrite 2-D convolutions on tensors with static shapes into
/// matmul-shaped linalg ops: 1x1 ones on views of their operands, others
/// through an im2col tensor of at most `im2colBudgetBytes` (blocks of output rows
/// when the whole output's patches would be larger). With `scalableLanes`, im2col
/// rows move with vectors of that many 32-bit lanes times vscale.
void populateConvToMatmulPatterns(RewritePatternSet &patterns,
                                  int64_t im2colBudgetBytes = kDefaultIm2colBytes,
                                  int64_t scalableLanes = 0);

/// Whether `conv` is one convert-conv-to-matmul (and mips-drop-padding-only-taps)
/// rewrites: tensors, static shapes, and element types libmips multiplies (f32, or
/// int8 into int32).
bool isLibmipsConv(linalg::LinalgOp conv);

/// Why this pass leaves `conv` (a linalg convolution) as loops; empty if it
/// rewrites it. For remarks (mips-remarks).
std::string whyConvStaysLoops(linalg::LinalgOp conv);

/// The taps of one spatial dimension that can read the input rather than only
/// its padding: [first, last] of the kernel, or nullopt if none can. A tap t
/// reads padded coordinates o*stride + t*dilation for o in [0, outSize); the
/// input occupies [low, low + inSize).
std::optional<std::pair<int64_t, int64_t>> tapsReadingInput(int64_t kernel, int64_t outSize,
                                                            int64_t stride, int64_t dilation,
                                                            int64_t low, int64_t inSize);

} // namespace mips
} // namespace mlir

#endif // MIPS_CONVERSION_CONVTOMATMUL_CONVTOMATMUL_H
