// SPDX-License-Identifier: Apache-2.0
//===- mips-opt.cpp - MLIR optimizer driver with the mips dialect ---------===//
//
// mlir-opt with every upstream dialect and pass plus the mips dialect, its
// passes, its bufferization model and the mips-lower-to-llvm pipeline.
//
//===----------------------------------------------------------------------===//

#include "mips-compiler/Bufferization/BufferizableOpInterfaceImpl.h"
#include "mips-compiler/Dialect/Mips/MipsDialect.h"
#include "mips-compiler/Passes.h"
#include "mips-compiler/Pipelines/Pipelines.h"
#include "mips-compiler/Tools/Version.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/CommandLine.h"

int main(int argc, char **argv) {
  mlir::mips::setToolVersionPrinter("mips-opt");
  mlir::registerAllPasses();
  mlir::mips::registerMipsPasses();
  mlir::mips::registerMipsPipelines();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  registry.insert<mlir::mips::MipsDialect>();
  mlir::mips::registerBufferizableOpInterfaceExternalModels(registry);

  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "mips optimizer driver\n", registry));
}
