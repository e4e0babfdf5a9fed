/* SPDX-License-Identifier: Apache-2.0 */
//===- InitMips.h - what the mips tools register ----------------*- C++ -*-===//
//
// mips-opt and mips-compile see the same dialects, interfaces and passes: every
// upstream one plus mips's own.
//
//===----------------------------------------------------------------------===//

#ifndef MIPS_INITMIPS_H
#define MIPS_INITMIPS_H

namespace mlir {
class DialectRegistry;

namespace mips {

/// Upstream's dialects and extensions, the mips dialect and its external
/// models (bufferization, tiling).
void registerMipsToolDialects(DialectRegistry &registry);

/// Upstream's passes, mips's conversions and rewrites and the
/// mips-lower-to-llvm pipeline, for the command line.
void registerMipsToolPasses();

} // namespace mips
} // namespace mlir

#endif // MIPS_INITMIPS_H
