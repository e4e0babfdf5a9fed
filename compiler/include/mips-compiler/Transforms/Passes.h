/* SPDX-License-Identifier: Apache-2.0 */
//===- Passes.h - mips rewrites ---------------------------------*- C++ -*-===//

#ifndef MIPS_TRANSFORMS_PASSES_H
#define MIPS_TRANSFORMS_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
namespace mips {

/// The default of mips-inline-small-matmuls' threshold (M*N*K): up to this size
/// with K <= 8, and half of it with K <= 16, inline code costs fewer instructions
/// than a libmips call (bench/inline_threshold.sh; riscv64, VLEN 128 to 1024, f32).
inline constexpr int64_t kDefaultInlineThreshold = 2048;

/// Whether mips-approximate-math evaluates `op` (a math op) with a polynomial
/// (f32, and the narrower floats it widens to f32) instead of a libm call.
bool isApproximatedMath(Operation *op);

/// Why mips-vectorize-depthwise-conv leaves `op` as loops whatever its buffers'
/// layout, or nothing if it becomes vector code once its channels are contiguous.
std::optional<StringRef> whyDepthwiseStaysLoops(Operation *op);
/// Why mips-flatten-depthwise-nchw leaves `op` as loops, or nothing.
std::optional<StringRef> whyDepthwiseNchwStaysLoops(Operation *op);

#define GEN_PASS_DECL
#include "mips-compiler/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "mips-compiler/Transforms/Passes.h.inc"

} // namespace mips
} // namespace mlir

#endif // MIPS_TRANSFORMS_PASSES_H
