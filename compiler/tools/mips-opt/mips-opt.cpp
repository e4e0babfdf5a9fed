// SPDX-License-Identifier: Apache-2.0
//===- mips-opt.cpp - MLIR optimizer driver with the mips dialect ---------===//
//
// mlir-opt with every upstream dialect and pass plus the mips dialect, its
// passes, its bufferization model and the mips-lower-to-llvm pipeline. Unlike
// mlir-opt, every input ends in success or a located error: known parser crashes
// are refused first, errors without a location get the input's, and a crash is
// reported as one line (mips-compiler/Tools/InputChecks.h).
//
//===----------------------------------------------------------------------===//

#include "mips-compiler/InitMips.h"
#include "mips-compiler/Tools/InputChecks.h"
#include "mips-compiler/Tools/Version.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/ToolUtilities.h"
#include "mlir/Tools/ParseUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

/// Parses each chunk of the input as mlir-opt will, with the checks MLIR lacks, so
/// that a bad input is reported here, located, before MlirOptMain sees it.
static LogicalResult probeInput(const llvm::MemoryBuffer &input, DialectRegistry &registry,
                                const MlirOptMainConfig &config, llvm::StringRef displayName) {
  auto probeChunk = [&](std::unique_ptr<llvm::MemoryBuffer> chunk,
                        llvm::raw_ostream &) -> LogicalResult {
    auto sourceMgr = std::make_shared<llvm::SourceMgr>();
    sourceMgr->AddNewSourceBuffer(std::move(chunk), llvm::SMLoc());
    if (failed(mips::checkKnownParserCrashes(*sourceMgr)))
      return failure();
    MLIRContext context(registry, MLIRContext::Threading::DISABLED);
    context.allowUnregisteredDialects(config.shouldAllowUnregisteredDialects());
    context.printOpOnDiagnostic(false);
    SourceMgrDiagnosticHandler diagnostics(*sourceMgr, &context);
    mips::locateUnlocatedErrors(context, displayName);
    return success(
        static_cast<bool>(parseSourceFileForTool(sourceMgr, ParserConfig(&context), true)));
  };
  return splitAndProcessBuffer(llvm::MemoryBuffer::getMemBufferCopy(input.getBuffer(),
                                                                    input.getBufferIdentifier()),
                               probeChunk, llvm::nulls(), config.inputSplitMarker());
}

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  mips::setToolVersionPrinter("mips-opt");
  mips::registerMipsToolPasses();
  DialectRegistry registry;
  mips::registerMipsToolDialects(registry);

  auto [inputFilename, outputFilename] =
      registerAndParseCLIOptions(argc, argv, "mips optimizer driver\n", registry);
  MlirOptMainConfig config = MlirOptMainConfig::createFromCLOptions();
  if (config.shouldShowDialects() || config.shouldListPasses()) // no input to read
    return asMainReturnCode(MlirOptMain(argc, argv, inputFilename, outputFilename, registry));

  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> input = openInputFile(inputFilename, &error);
  if (!input) {
    llvm::errs() << error << "\n";
    return 1;
  }
  const std::string displayName = inputFilename == "-" ? "<stdin>" : inputFilename;
  return mips::runRecoveringCrashes("mips-opt", displayName, [&]() -> int {
    // Diagnostic tests expect their errors as MLIR reports them.
    if (!config.shouldVerifyDiagnostics() &&
        failed(probeInput(*input, registry, config, displayName)))
      return 1;
    std::unique_ptr<llvm::ToolOutputFile> output = openOutputFile(outputFilename, &error);
    if (!output) {
      llvm::errs() << error << "\n";
      return 1;
    }
    // Errors of the passes: located like the parser's.
    const MlirOptMainConfig passes = config;
    config.setPassPipelineSetupFn([&](PassManager &pm) {
      mips::locateUnlocatedErrors(*pm.getContext(), displayName);
      return passes.setupPassPipeline(pm);
    });
    if (failed(MlirOptMain(output->os(), std::move(input), registry, config)))
      return 1;
    output->keep();
    return 0;
  });
}
