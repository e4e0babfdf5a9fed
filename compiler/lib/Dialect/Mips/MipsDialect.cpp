// SPDX-License-Identifier: Apache-2.0
//===- MipsDialect.cpp - mips dialect ---------------------------*- C++ -*-===//

#include "mips-compiler/Dialect/Mips/MipsDialect.h"

#include "mips-compiler/Dialect/Mips/MipsOps.h"

using namespace mlir;
using namespace mlir::mips;

#include "mips-compiler/Dialect/Mips/MipsOpsDialect.cpp.inc"

void MipsDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "mips-compiler/Dialect/Mips/MipsOps.cpp.inc"
      >();
}
