/* SPDX-License-Identifier: Apache-2.0 */
//===- MipsDialect.h - mips dialect -----------------------------*- C++ -*-===//

#ifndef MIPS_DIALECT_MIPS_MIPSDIALECT_H
#define MIPS_DIALECT_MIPS_MIPSDIALECT_H

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Dialect.h"

#include "mips-compiler/Dialect/Mips/MipsOpsDialect.h.inc"

#endif // MIPS_DIALECT_MIPS_MIPSDIALECT_H
