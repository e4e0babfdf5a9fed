/* SPDX-License-Identifier: Apache-2.0 */
//===- MipsOps.h - mips dialect operations ----------------------*- C++ -*-===//

#ifndef MIPS_DIALECT_MIPS_MIPSOPS_H
#define MIPS_DIALECT_MIPS_MIPSOPS_H

#include "mips-compiler/Dialect/Mips/MipsDialect.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define GET_OP_CLASSES
#include "mips-compiler/Dialect/Mips/MipsOps.h.inc"

#endif // MIPS_DIALECT_MIPS_MIPSOPS_H
