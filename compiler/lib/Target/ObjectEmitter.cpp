// SPDX-License-Identifier: Apache-2.0
//===- ObjectEmitter.cpp - LLVM dialect to object files ---------*- C++ -*-===//
//
// Translates to LLVM IR, links the mips runtime bitcode for the target and
// linking mode into the module, optimizes, and emits IR, assembly or an object
// through an LLVM TargetMachine, all in-process.
//
//===----------------------------------------------------------------------===//

#include "mips-compiler/Target/Target.h"

#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/Linker/Linker.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Triple.h"

using namespace mlir;

namespace {

struct EmbeddedFile {
  llvm::StringRef name;
  llvm::StringRef bytes;
};

#define MIPS_EMBEDDED_FILE(name, bytes, size)                                  \
  EmbeddedFile{#name, llvm::StringRef(bytes, size)},
const EmbeddedFile kRuntimeBitcode[] = {
#include "RuntimeBitcode.inc"
};
#undef MIPS_EMBEDDED_FILE

const mips::TargetSpec kTargets[] = {
    {"x86_64", "x86_64-unknown-linux-gnu", "x86-64", "", ""},
    {"riscv64", "riscv64-unknown-linux-gnu", "generic-rv64", "+m,+a,+f,+d,+c,+v",
     "lp64d"},
};

/// The runtime for `target` in the given linking mode.
FailureOr<llvm::StringRef> getRuntimeBitcode(const mips::TargetSpec &target,
                                             bool staticEmbedding) {
  std::string name = ("mips_runtime_" + target.name + "_" +
                      (staticEmbedding ? "static" : "dynamic"))
                         .str();
  for (const EmbeddedFile &file : kRuntimeBitcode)
    if (file.name == name)
      return file.bytes;
  return failure();
}

void initializeTargetsOnce() {
  static bool initialized = [] {
    llvm::InitializeAllTargetInfos();
    llvm::InitializeAllTargets();
    llvm::InitializeAllTargetMCs();
    llvm::InitializeAllAsmPrinters();
    return true;
  }();
  (void)initialized;
}

void optimize(llvm::Module &module, llvm::TargetMachine &machine,
              unsigned optLevel) {
  if (optLevel == 0)
    return;
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder builder(&machine);
  builder.registerModuleAnalyses(mam);
  builder.registerCGSCCAnalyses(cgam);
  builder.registerFunctionAnalyses(fam);
  builder.registerLoopAnalyses(lam);
  builder.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::OptimizationLevel level = optLevel == 1   ? llvm::OptimizationLevel::O1
                                  : optLevel == 2 ? llvm::OptimizationLevel::O2
                                                  : llvm::OptimizationLevel::O3;
  builder.buildPerModuleDefaultPipeline(level).run(module, mam);
}

} // namespace

llvm::ArrayRef<mips::TargetSpec> mips::getSupportedTargets() { return kTargets; }

const mips::TargetSpec *mips::lookupTarget(llvm::StringRef name) {
  for (const TargetSpec &target : kTargets)
    if (target.name == name)
      return &target;
  return nullptr;
}

LogicalResult mips::emitModule(ModuleOp module, const EmitOptions &options,
                               llvm::raw_pwrite_stream &os) {
  initializeTargetsOnce();
  const TargetSpec &target = *options.target;
  llvm::Triple triple(target.triple);
  std::string error;
  const llvm::Target *llvmTarget = llvm::TargetRegistry::lookupTarget(triple, error);
  if (!llvmTarget)
    return module.emitError() << "LLVM has no backend for " << target.triple
                              << ": " << error;

  std::string features = target.defaultFeatures.str();
  if (!options.extraFeatures.empty())
    features += (features.empty() ? "" : ",") + options.extraFeatures;
  llvm::TargetOptions targetOptions;
  targetOptions.MCOptions.ABIName = target.abiName.str();
  std::unique_ptr<llvm::TargetMachine> machine(llvmTarget->createTargetMachine(
      triple, target.cpu, features, targetOptions, llvm::Reloc::PIC_,
      std::nullopt,
      options.optLevel == 0 ? llvm::CodeGenOptLevel::None
                            : llvm::CodeGenOptLevel::Default));
  if (!machine)
    return module.emitError() << "cannot create a target machine for "
                              << target.triple << " with '" << features << "'";

  DialectRegistry registry;
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  module.getContext()->appendDialectRegistry(registry);

  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, llvmContext, "mips-model");
  if (!llvmModule)
    return module.emitError() << "translation to LLVM IR failed";
  llvmModule->setTargetTriple(triple);
  llvmModule->setDataLayout(machine->createDataLayout());

  FailureOr<llvm::StringRef> bitcode =
      getRuntimeBitcode(target, options.staticEmbedding);
  if (failed(bitcode))
    return module.emitError() << "no mips runtime for " << target.name;
  llvm::Expected<std::unique_ptr<llvm::Module>> runtime = llvm::parseBitcodeFile(
      llvm::MemoryBufferRef(*bitcode, "mips-runtime"), llvmContext);
  if (!runtime)
    return module.emitError() << "cannot read the mips runtime: "
                              << llvm::toString(runtime.takeError());
  (*runtime)->setTargetTriple(triple);
  (*runtime)->setDataLayout(machine->createDataLayout());
  if (llvm::Linker::linkModules(*llvmModule, std::move(*runtime)))
    return module.emitError() << "cannot link the mips runtime into the module";

  optimize(*llvmModule, *machine, options.optLevel);

  if (options.kind == OutputKind::LLVMIR) {
    llvmModule->print(os, nullptr);
    return success();
  }
  llvm::legacy::PassManager codegen;
  auto fileType = options.kind == OutputKind::Assembly
                      ? llvm::CodeGenFileType::AssemblyFile
                      : llvm::CodeGenFileType::ObjectFile;
  if (machine->addPassesToEmitFile(codegen, os, nullptr, fileType))
    return module.emitError() << "the " << target.name
                              << " backend cannot emit this file type";
  codegen.run(*llvmModule);
  return success();
}
