/* SPDX-License-Identifier: Apache-2.0 */
//===- Passes.h - conversions into and out of mips --------------*- C++ -*-===//

#ifndef MIPS_CONVERSION_PASSES_H
#define MIPS_CONVERSION_PASSES_H

#include "mips-compiler/Conversion/ConvToMatmul/ConvToMatmul.h"
#include "mips-compiler/Conversion/LinalgToMips/LinalgToMips.h"
#include "mips-compiler/Conversion/MipsToLibmips/MipsToLibmips.h"
#include "mips-compiler/Conversion/MipsToVector/MipsToVector.h"

namespace mlir {
namespace mips {

#define GEN_PASS_REGISTRATION
#include "mips-compiler/Conversion/Passes.h.inc"

} // namespace mips
} // namespace mlir

#endif // MIPS_CONVERSION_PASSES_H
