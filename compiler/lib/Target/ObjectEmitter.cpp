// SPDX-License-Identifier: Apache-2.0
//===- ObjectEmitter.cpp - LLVM dialect to object files ---------*- C++ -*-===//
//
// Translates to LLVM IR, links the mips runtime bitcode for the target and
// linking mode into the module, optimizes, and emits IR, assembly or an object
// through an LLVM TargetMachine, all in-process.
//
//===----------------------------------------------------------------------===//

#include "mips-compiler/Target/Target.h"
#include "mips-compiler/Target/CpuGuard.h"
#include "mips-compiler/Target/LibmipsBitcode.h"
#include "mips-compiler/Runtime/Imports.h"

#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/Linker/Linker.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/RISCVISAInfo.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"

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

/// The runtime for `target` in the given linking mode, for an object that needs
/// libmips ABI 1.<abiMinor>.
FailureOr<llvm::StringRef> getRuntimeBitcode(const mips::TargetSpec &target,
                                             bool staticEmbedding, unsigned abiMinor) {
  std::string name = ("mips_runtime_" + target.name + "_" +
                      (staticEmbedding ? "static" : "dynamic") + "_abi1_" + llvm::Twine(abiMinor))
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
  // With RVV, a fill loop runs faster as vector stores than as a call to the C
  // library's memset, which is scalar on riscv64 (glibc 2.36): 64 K scalar
  // instructions for a 96 KiB fill against 3 K vector stores at VLEN 1024.
  llvm::TargetLibraryInfoImpl libraryInfo(machine.getTargetTriple());
  llvm::SmallVector<llvm::StringRef> features;
  machine.getTargetFeatureString().split(features, ',');
  if (machine.getTargetTriple().isRISCV() && llvm::is_contained(features, "+v"))
    libraryInfo.setUnavailable(llvm::LibFunc_memset);
  fam.registerPass([&] { return llvm::TargetLibraryAnalysis(libraryInfo); });
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

/// The CPU and feature string for `options`, checked against what LLVM knows of the
/// target, so that a typo is one clear error instead of LLVM's warnings on every use.
/// On riscv64 the ISA is resolved the way clang resolves -march: the defaults (or
/// --march) with --mattr's additions and removals, then every extension they imply
/// and an explicit removal of every other one. So --mattr=-v also drops the Zve*/Zvl*
/// extensions that V implies, and the object holds no vector instruction.
/// LLVM's backend for `target`, its backends registered first.
static llvm::Expected<const llvm::Target *> lookupBackend(const mips::TargetSpec &target) {
  initializeTargetsOnce();
  std::string error;
  const llvm::Target *backend =
      llvm::TargetRegistry::lookupTarget(llvm::Triple(target.triple), error);
  if (!backend)
    return llvm::createStringError("LLVM has no backend for " + target.triple + ": " + error);
  return backend;
}

/// `config` with what the pipeline needs to know of its machine filled in.
static mips::TargetMachineConfig withTraits(const llvm::Target &backend, const llvm::Triple &triple,
                                            mips::TargetMachineConfig config) {
  std::unique_ptr<llvm::MCSubtargetInfo> info(
      backend.createMCSubtargetInfo(triple, config.cpu, config.features));
  // RISC-V's F extension has fmadd.s (and V vfmacc).
  config.fusedMultiplyAdd = info && info->checkFeatures(triple.isRISCV() ? "+f" : "+fma");
  llvm::SmallVector<llvm::StringRef> features;
  llvm::StringRef(config.features).split(features, ',');
  config.scalableVectors = triple.isRISCV() && llvm::is_contained(features, "+v");
  return config;
}

llvm::Expected<mips::TargetMachineConfig>
mips::resolveTargetMachineConfig(const EmitOptions &options) {
  const TargetSpec &target = *options.target;
  llvm::Triple triple(target.triple);
  llvm::Expected<const llvm::Target *> backend = lookupBackend(target);
  if (!backend)
    return backend.takeError();
  const llvm::Target *llvmTarget = *backend;
  auto fail = [](const llvm::Twine &message) { return llvm::createStringError(message); };
  const std::string cpu = options.cpu.empty() ? target.cpu.str() : options.cpu;
  // Created for the default CPU: LLVM warns on stderr about an unknown one.
  std::unique_ptr<llvm::MCSubtargetInfo> info(
      llvmTarget->createMCSubtargetInfo(triple, target.cpu, ""));
  if (!info || !info->isCPUStringValid(cpu))
    return fail("unknown CPU '" + cpu + "' for " + target.name + " (--mcpu)");
  llvm::StringSet<> known;
  for (const llvm::SubtargetFeatureKV &kv : info->getAllProcessorFeatures())
    known.insert(kv.Key);
  llvm::SmallVector<llvm::StringRef> requested;
  llvm::StringRef(options.extraFeatures).split(requested, ',', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef feature : requested) {
    feature = feature.trim();
    if ((!feature.starts_with("+") && !feature.starts_with("-")) ||
        !known.contains(feature.drop_front()))
      return fail("unknown " + target.name + " target feature '" + feature +
                  "' in --mattr (write +name or -name, e.g. " +
                  (target.name == "riscv64" ? "+zba" : "+avx2") + ")");
  }

  if (target.name != "riscv64") {
    if (!options.march.empty())
      return fail("--march takes a RISC-V ISA string; for " + target.name + " use --mcpu");
    std::string features = target.defaultFeatures.str();
    if (!options.extraFeatures.empty())
      features += (features.empty() ? "" : ",") + options.extraFeatures;
    return withTraits(*llvmTarget, triple, TargetMachineConfig{cpu, features});
  }

  // The extensions asked for: --march's (with what it implies) or the defaults.
  std::vector<std::string> enabled;
  if (!options.march.empty()) {
    auto isa = llvm::RISCVISAInfo::parseArchString(options.march,
                                                   /*EnableExperimentalExtension=*/false);
    if (!isa)
      return fail("invalid --march '" + options.march + "': " + llvm::toString(isa.takeError()));
    if ((*isa)->getXLen() != 64)
      return fail("--march '" + options.march + "' is not a 64-bit ISA (riscv64 needs rv64...)");
    enabled = (*isa)->toFeatures();
  } else {
    llvm::SmallVector<llvm::StringRef> defaults;
    target.defaultFeatures.split(defaults, ',', -1, /*KeepEmpty=*/false);
    for (llvm::StringRef feature : defaults)
      enabled.push_back(feature.str());
  }
  for (llvm::StringRef feature : requested) {
    feature = feature.trim();
    const std::string plus = ("+" + feature.drop_front()).str();
    llvm::erase(enabled, plus);
    if (feature.starts_with("+"))
      enabled.push_back(plus);
  }
  auto resolved = llvm::RISCVISAInfo::parseFeatures(64, enabled);
  if (!resolved)
    return fail("inconsistent riscv64 extensions: " + llvm::toString(resolved.takeError()));
  return withTraits(
      *llvmTarget, triple,
      TargetMachineConfig{cpu, llvm::join((*resolved)->toFeatures(/*AddAllExtensions=*/true), ",")});
}

LogicalResult mips::emitModule(ModuleOp module, const EmitOptions &options,
                               const TargetMachineConfig &config, llvm::raw_pwrite_stream &os) {
  const TargetSpec &target = *options.target;
  llvm::Triple triple(target.triple);
  llvm::Expected<const llvm::Target *> backend = lookupBackend(target);
  if (!backend)
    return module.emitError() << llvm::toString(backend.takeError());
  const llvm::Target *llvmTarget = *backend;

  const std::string &features = config.features;
  llvm::TargetOptions targetOptions;
  targetOptions.MCOptions.ABIName = target.abiName.str();
  std::unique_ptr<llvm::TargetMachine> machine(llvmTarget->createTargetMachine(
      triple, config.cpu, features, targetOptions, llvm::Reloc::PIC_,
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

  // What the model itself defines: all that stays visible when libmips is embedded.
  llvm::StringSet<> modelSymbols;
  for (const llvm::GlobalValue &value : llvmModule->global_values())
    if (!value.isDeclaration() && !value.hasLocalLinkage())
      modelSymbols.insert(value.getName());

  const bool embedding = !options.libmipsBitcode.empty();
  const unsigned abiMinor = mips::getRequiredAbiMinor(module);
  FailureOr<llvm::StringRef> bitcode =
      getRuntimeBitcode(target, options.staticEmbedding || embedding, abiMinor);
  if (failed(bitcode))
    return module.emitError() << "no mips runtime for " << target.name << " and libmips ABI "
                              << MIPS_RT_ABI_MAJOR << "." << abiMinor;
  llvm::Expected<std::unique_ptr<llvm::Module>> runtime = llvm::parseBitcodeFile(
      llvm::MemoryBufferRef(*bitcode, "mips-runtime"), llvmContext);
  if (!runtime)
    return module.emitError() << "cannot read the mips runtime: "
                              << llvm::toString(runtime.takeError());
  (*runtime)->setTargetTriple(triple);
  (*runtime)->setDataLayout(machine->createDataLayout());
  if (llvm::Linker::linkModules(*llvmModule, std::move(*runtime)))
    return module.emitError() << "cannot link the mips runtime into the module";
  if (embedding)
    if (llvm::Error error = mips::embedLibmips(
            *llvmModule, options.libmipsBitcode,
            [&](llvm::StringRef name) { return modelSymbols.contains(name); }))
      return module.emitError() << llvm::toString(std::move(error));
  mips::guardEntryPoints(*llvmModule, features, abiMinor,
                         [&](llvm::StringRef name) { return modelSymbols.contains(name); });

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
