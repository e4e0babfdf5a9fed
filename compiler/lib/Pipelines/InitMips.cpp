// SPDX-License-Identifier: Apache-2.0
//===- InitMips.cpp - what the mips tools register --------------*- C++ -*-===//

#include "mips-compiler/InitMips.h"

#include "mips-compiler/Bufferization/BufferizableOpInterfaceImpl.h"
#include "mips-compiler/Conversion/Passes.h"
#include "mips-compiler/Dialect/Mips/MipsDialect.h"
#include "mips-compiler/Dialect/Mips/TilingInterfaceImpl.h"
#include "mips-compiler/Pipelines/Pipelines.h"
#include "mips-compiler/Transforms/Passes.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"

void mlir::mips::registerMipsToolDialects(DialectRegistry &registry) {
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registry.insert<MipsDialect>();
  registerBufferizableOpInterfaceExternalModels(registry);
  registerTilingInterfaceExternalModels(registry);
}

void mlir::mips::registerMipsToolPasses() {
  registerAllPasses();
  registerMipsConversionPasses();
  registerMipsTransformsPasses();
  registerMipsPipelines();
}
