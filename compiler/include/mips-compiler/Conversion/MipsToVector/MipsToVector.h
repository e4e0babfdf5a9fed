/* SPDX-License-Identifier: Apache-2.0 */
//===- MipsToVector.h - small mips.matmul as inline vector code -*- C++ -*-===//

#ifndef MIPS_CONVERSION_MIPSTOVECTOR_MIPSTOVECTOR_H
#define MIPS_CONVERSION_MIPSTOVECTOR_MIPSTOVECTOR_H

#include "mlir/Pass/Pass.h"

namespace mlir {
namespace mips {

#define GEN_PASS_DECL_CONVERTMIPSTOVECTOR
#include "mips-compiler/Conversion/Passes.h.inc"

} // namespace mips
} // namespace mlir

#endif // MIPS_CONVERSION_MIPSTOVECTOR_MIPSTOVECTOR_H
