// SPDX-License-Identifier: Apache-2.0
//===- mips-compile.cpp - MLIR model to object file -----------------------===//
//
//   mips-compile model.mlir -o model.o [--target=x86_64|riscv64] [--mattr=...]
//                [--static-embedding | --embed-libmips [--libmips-bitcode=file]]
//                [--emit=mlir|llvm|asm|obj]
//                [--emit-header=model.h] [-O0..3]
//
// Runs convert-linalg-to-mips, bufferization to libmips calls and the lowering
// to LLVM, then emits the requested file for the target, in-process.
//
//===----------------------------------------------------------------------===//

#include "mips-compiler/Conversion/ConvToMatmul/ConvToMatmul.h"
#include "mips-compiler/InitMips.h"
#include "mips-compiler/Pipelines/Pipelines.h"
#include "mips-compiler/Runtime/Imports.h"
#include "mips-compiler/Target/LibmipsBitcode.h"
#include "mips-compiler/Target/Target.h"
#include "mips-compiler/Tools/InputChecks.h"
#include "mips-compiler/Tools/ModelChecks.h"
#include "mips-compiler/Tools/Version.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/Timing.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
namespace cl = llvm::cl;

static cl::OptionCategory category("mips-compile options");

static cl::opt<std::string> inputFilename(cl::Positional, cl::desc("<model.mlir>"),
                                          cl::init("-"), cl::cat(category));
static cl::opt<std::string> outputFilename("o", cl::desc("Output file (- for stdout)"),
                                           cl::value_desc("file"), cl::cat(category));
static cl::opt<std::string> targetName("target", cl::desc("x86_64 (default) or riscv64"),
                                       cl::init("x86_64"), cl::cat(category));
static cl::opt<std::string>
    mattr("mattr", cl::desc("Target features added to or removed from the target's "
                            "(riscv64: rv64gcv, or --march), e.g. +zba or -v"),
          cl::cat(category));
static cl::opt<std::string>
    march("march",
          cl::desc("riscv64: the ISA to compile for, as a RISC-V ISA string (default "
                   "rv64gcv); e.g. rv64gc for a core without V"),
          cl::value_desc("isa"), cl::cat(category));
static cl::opt<std::string> mcpu("mcpu", cl::desc("The CPU to schedule and select for"),
                                 cl::value_desc("cpu"), cl::cat(category));
static cl::opt<bool> staticEmbedding(
    "static-embedding",
    cl::desc("Call libmips directly (link with -lmips) instead of through the "
             "dlopen import table"),
    cl::cat(category));
static cl::opt<bool> embedLibmips(
    "embed-libmips",
    cl::desc("Link libmips itself into the object, as bitcode optimized with the model: "
             "the object needs no libmips at link or run time"),
    cl::cat(category));
static cl::opt<std::string> libmipsBitcodePath(
    "libmips-bitcode",
    cl::desc("The libmips bitcode --embed-libmips links (default: "
             "../share/mips/libmips-<target>.bc from mips-compile)"),
    cl::value_desc("file"), cl::cat(category));
static cl::opt<std::string> emitKind("emit", cl::desc("mlir | llvm | asm | obj (default)"),
                                     cl::init("obj"), cl::cat(category));
static cl::opt<std::string>
    headerFilename("emit-header",
                   cl::desc("Also write a C header declaring the model's functions"),
                   cl::value_desc("file.h"), cl::cat(category));
static cl::opt<int64_t> inlineThreshold(
    "mips-inline-threshold",
    cl::desc("Static matmuls of at most this many multiply-adds (M*N*K) with K <= 8, or "
             "half as many with K <= 16, run as inline vector code instead of a libmips "
             "call (riscv64 with V: f32 ones more than 8 columns wide with K <= 16, up to "
             "8 times as many); 0 calls libmips for every matmul"),
    cl::init(mips::kDefaultInlineThreshold), cl::cat(category));
static cl::opt<bool> inlineAnyShape(
    "mips-inline-any-shape",
    cl::desc("Inline static matmuls up to the threshold whatever their K (for measuring "
             "the rule; bench/inline_threshold.sh)"),
    cl::Hidden, cl::cat(category));
static cl::opt<bool> preciseMath(
    "mips-precise-math",
    cl::desc("Call libm for exp, erf, tanh, log and the other f32 math functions instead of "
             "evaluating them with polynomials on vectors (slower; see the README for the "
             "polynomials' accuracy)"),
    cl::cat(category));
static cl::opt<bool> specializeDense(
    "mips-specialize-dense-arguments",
    cl::desc("Compile a second copy of each function with loops over its arguments, for "
             "dense row-major arguments, picked at run time (default on; off shows one copy)"),
    cl::init(true), cl::Hidden, cl::cat(category));
static cl::opt<int64_t> im2colBytes(
    "mips-im2col-bytes",
    cl::desc("Largest im2col buffer of a convolution, in bytes; larger ones run in blocks "
             "of output rows (default 4 MiB)"),
    cl::init(mips::kDefaultIm2colBytes), cl::Hidden, cl::cat(category));
static cl::opt<bool> anyOrder(
    "mips-any-order",
    cl::desc("Let libmips sum f32 matmuls over k in any order, as dot products where that is "
             "faster (matrix-vector shapes: a layer applied to one token or one image); results "
             "may differ in the last bits from the ascending order. The object then needs "
             "libmips ABI 1.2 and says so when loaded with an older library"),
    cl::cat(category));
static cl::opt<bool> packConstantWeights(
    "mips-pack-constant-weights",
    cl::desc("Pack each matmul's constant weights (a B that is a constant of the module, or an "
             "A with a narrower product, such as an NCHW convolution's filters) once, on first "
             "use, in the layout libmips's kernels read, and call the packed form: calls with "
             "few rows (decoding one token, a frozen network's late layers) run at the "
             "kernels' speed. The object then needs libmips ABI 1.2"),
    cl::cat(category));
static cl::opt<bool> batchedCalls(
    "mips-batched-calls",
    cl::desc("Make each batch matmul (attention heads, grouped weights) one batched libmips "
             "call, which threads across the batch when each entry is small, instead of a "
             "call per entry. The object then needs libmips ABI 1.2"),
    cl::cat(category));
static cl::opt<bool> remarks(
    "mips-remarks",
    cl::desc("Print a remark at each matmul (libmips call or inline code), each convolution "
             "or contraction left as loops, and each math function left a libm call per "
             "element, saying why"),
    cl::cat(category));
static cl::opt<unsigned> optLevel("O", cl::desc("LLVM optimization level 0-3 (default 2)"),
                                  cl::Prefix, cl::init(2), cl::cat(category));

/// Prints `message` as mips-compile's own error and returns exit status 1.
static int fail(const llvm::Twine &message) {
  llvm::errs() << "mips-compile: error: " << message << "\n";
  return 1;
}

static std::string defaultOutputName(llvm::StringRef extension) {
  if (inputFilename == "-")
    return "-";
  llvm::SmallString<128> name(llvm::sys::path::filename(inputFilename));
  llvm::sys::path::replace_extension(name, extension);
  return std::string(name);
}

/// MODEL_H from model.h.
static std::string headerGuard(llvm::StringRef path) {
  std::string guard;
  for (char c : llvm::sys::path::filename(path))
    guard += llvm::isAlnum(c) ? llvm::toUpper(c) : '_';
  if (guard.empty() || llvm::isDigit(guard[0]))
    guard = "MIPS_" + guard;
  return guard;
}

/// The files a compilation writes. They are opened before anything is written and kept
/// only when every one of them has been written in full: a failure leaves none behind.
class OutputFiles {
public:
  /// Opens `path`; reports and returns null on failure.
  llvm::raw_pwrite_stream *open(llvm::StringRef path) {
    std::string error;
    std::unique_ptr<llvm::ToolOutputFile> file = openOutputFile(path, &error);
    if (!file) {
      llvm::errs() << "mips-compile: error: " << error << "\n";
      return nullptr;
    }
    llvm::raw_pwrite_stream *os = &file->os();
    // Object emission seeks back to patch headers; a pipe cannot seek, so it gets a
    // buffer that is written out in one piece at the end.
    if (!file->os().supportsSeeking()) {
      buffers.push_back(std::make_unique<llvm::buffer_ostream>(file->os()));
      os = buffers.back().get();
    }
    files.push_back(std::move(file));
    return os;
  }

  /// Flushes the buffers and keeps every file.
  void keep() {
    buffers.clear();
    for (std::unique_ptr<llvm::ToolOutputFile> &file : files)
      file->keep();
  }

private:
  std::vector<std::unique_ptr<llvm::ToolOutputFile>> files;
  std::vector<std::unique_ptr<llvm::buffer_ostream>> buffers;
};

/// The libmips bitcode --embed-libmips links, read and checked before any work.
struct LibmipsBitcode {
  std::string path;
  std::unique_ptr<llvm::MemoryBuffer> buffer;
  unsigned abiMinor = 0;
};

static int compile(const std::string &displayName,
                   const std::pair<llvm::StringRef, llvm::StringRef> &kind,
                   mips::EmitOptions emitOptions, const mips::TargetMachineConfig &config,
                   const LibmipsBitcode *libmips);

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  mips::setToolVersionPrinter("mips-compile", [](llvm::raw_ostream &os) {
    os << "  libmips linkages: import table (default; libmips.so.1 loaded on first use), "
          "--static-embedding (link with -lmips), --embed-libmips (libmips inside the "
          "object), whose bitcode is:\n";
    for (const mips::TargetSpec &target : mips::getSupportedTargets()) {
      std::string path = mips::defaultLibmipsBitcodePath(nullptr, nullptr, target);
      os << "    " << target.name << ": " << path
         << (llvm::sys::fs::exists(path) ? "" : " (missing)") << "\n";
    }
  });
  mips::registerMipsToolPasses();
  // MLIR's usual debugging flags: --mlir-print-ir-after-all, --mlir-timing, ...
  registerMLIRContextCLOptions();
  registerPassManagerCLOptions();
  registerDefaultTimingManagerCLOptions();
  registerAsmPrinterCLOptions();
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(argc, argv, "mips compiler: MLIR model to object file\n");

  const mips::TargetSpec *target = mips::lookupTarget(targetName);
  if (!target) {
    llvm::SmallVector<llvm::StringRef> names;
    for (const mips::TargetSpec &t : mips::getSupportedTargets())
      names.push_back(t.name);
    return fail("unknown target '" + targetName + "'; valid targets: " +
                llvm::join(names, ", "));
  }
  static const std::pair<llvm::StringRef, llvm::StringRef> kinds[] = {
      {"mlir", "mlir"}, {"llvm", "ll"}, {"asm", "s"}, {"obj", "o"}};
  const auto *kind = llvm::find_if(kinds, [](auto &k) { return k.first == emitKind; });
  if (kind == std::end(kinds))
    return fail("unknown --emit kind '" + emitKind + "'; valid: mlir, llvm, asm, obj");
  if (inlineThreshold < 0)
    return fail("--mips-inline-threshold=" + llvm::Twine(inlineThreshold.getValue()) +
                " is negative; give 0 (always call libmips) or more");
  if (im2colBytes < 1)
    return fail("--mips-im2col-bytes=" + llvm::Twine(im2colBytes.getValue()) +
                " is not positive");
  if (optLevel > 3)
    return fail("-O" + llvm::Twine(optLevel.getValue()) + " is not one of -O0..-O3");
  if (outputFilename.empty())
    outputFilename = defaultOutputName(kind->second);
  mips::EmitOptions emitOptions;
  emitOptions.target = target;
  emitOptions.cpu = mcpu;
  emitOptions.march = march;
  emitOptions.extraFeatures = mattr;
  emitOptions.staticEmbedding = staticEmbedding;
  emitOptions.optLevel = optLevel;
  if (embedLibmips && staticEmbedding)
    return fail("--embed-libmips and --static-embedding are two different linkages; choose one");
  if (!libmipsBitcodePath.empty() && !embedLibmips)
    return fail("--libmips-bitcode names the bitcode --embed-libmips links; add --embed-libmips");
  LibmipsBitcode libmips;
  if (embedLibmips) {
    libmips.path = libmipsBitcodePath.empty()
                       ? mips::defaultLibmipsBitcodePath(argv[0], (void *)&fail, *target)
                       : libmipsBitcodePath.getValue();
    auto buffer = llvm::MemoryBuffer::getFile(libmips.path);
    if (!buffer)
      return fail(libmips.path + ": cannot read the libmips bitcode for " + target->name +
                  " (" + buffer.getError().message() +
                  "); build the libmips-bitcode target, or pass --libmips-bitcode=<file>");
    libmips.buffer = std::move(*buffer);
    llvm::Expected<unsigned> minor =
        mips::checkLibmipsBitcode(libmips.buffer->getBuffer(), *target);
    if (!minor)
      return fail(libmips.path + " " + llvm::toString(minor.takeError()));
    libmips.abiMinor = *minor;
    emitOptions.libmipsBitcode = libmips.buffer->getBuffer();
  }
  // The target, resolved once for the whole compile: a bad --mcpu/--march/--mattr is
  // reported before any work.
  llvm::Expected<mips::TargetMachineConfig> config = mips::resolveTargetMachineConfig(emitOptions);
  if (!config)
    return fail(llvm::toString(config.takeError()));

  const std::string displayName = inputFilename == "-" ? "<stdin>" : inputFilename.getValue();
  return mips::runRecoveringCrashes("mips-compile", displayName, [&]() -> int {
    return compile(displayName, *kind, emitOptions, *config, embedLibmips ? &libmips : nullptr);
  });
}

/// Parses, checks, lowers and emits the input; the options are valid.
static int compile(const std::string &displayName,
                   const std::pair<llvm::StringRef, llvm::StringRef> &kind,
                   mips::EmitOptions emitOptions, const mips::TargetMachineConfig &config,
                   const LibmipsBitcode *libmips) {
  DialectRegistry registry;
  mips::registerMipsToolDialects(registry);
  MLIRContext context(registry);
  // Diagnostics carry file:line:col; a dump of the operation after each would bury them.
  context.printOpOnDiagnostic(false);

  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> input = openInputFile(inputFilename, &error);
  if (!input)
    return fail(error);
  if (std::optional<std::string> problem = mips::describeNonText(input->getBuffer())) {
    llvm::errs() << displayName << ":1:1: error: " << *problem << "\n";
    return 1;
  }
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(input), llvm::SMLoc());
  if (failed(mips::checkKnownParserCrashes(sourceMgr)))
    return 1;
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  // Every message names a place: one without falls back to the input file.
  mips::locateUnlocatedErrors(context, displayName);
  // Registered last, so it sees each diagnostic first.
  ScopedDiagnosticHandler clearer(&context, [&](Diagnostic &diag) {
    return mips::explainForeignDialect(diag, sourceMgr);
  });

  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module) // the parser verified it and reported any error
    return 1;
  if (failed(mips::checkModelForMipsCompile(*module)))
    return 1;

  // Nested modules would be dropped silently by the module-level pipeline.
  for (Operation &op : module->getBody()->getOperations())
    if (isa<ModuleOp>(op)) {
      op.emitError("nested modules are not supported; put the functions in the "
                   "top-level module");
      return 1;
    }

  // The header describes the functions as written, before lowering; it is
  // written only once the whole compilation has succeeded.
  std::string header;
  if (!headerFilename.empty()) {
    llvm::raw_string_ostream os(header);
    const char *linkage = libmips         ? "libmips embedded (--embed-libmips): link with "
                                            "nothing else; no libmips.so at run time"
                          : staticEmbedding ? "direct calls (--static-embedding): link with -lmips"
                                            : "import table (default): libmips.so.1 is "
                                              "loaded on first use";
    if (failed(mips::emitCHeader(*module, headerGuard(headerFilename), inputFilename, linkage,
                                 os)))
      return 1;
  }

  PassManager pm(&context);
  if (failed(applyPassManagerCLOptions(pm)))
    return fail("bad pass manager options");
  applyDefaultTimingPassManagerCLOptions(pm);
  mips::MipsLoweringOptions pipelineOptions;
  pipelineOptions.staticEmbedding = staticEmbedding || libmips;
  pipelineOptions.embedLibmips = libmips != nullptr;
  pipelineOptions.inlineThreshold = inlineThreshold;
  pipelineOptions.inlineAnyShape = inlineAnyShape;
  pipelineOptions.preciseMath = preciseMath;
  pipelineOptions.remarks = remarks;
  pipelineOptions.specializeDenseArguments = specializeDense;
  pipelineOptions.im2colBytes = im2colBytes;
  pipelineOptions.anyOrder = anyOrder;
  pipelineOptions.packConstantWeights = packConstantWeights;
  pipelineOptions.batchedCalls = batchedCalls;
  // RVV: the compiler's own vector code uses scalable vectors of one register, so one
  // object fills the register at every VLEN.
  pipelineOptions.scalableVectors = config.scalableVectors;
  pipelineOptions.vectorLanes =
      config.scalableVectors ? mips::kScalableVectorLanes : mips::kFixedVectorLanes;
  pipelineOptions.fusedMultiplyAdd = config.fusedMultiplyAdd;
  mips::buildMipsLoweringPipeline(pm, pipelineOptions);
  if (failed(pm.run(*module)))
    return 1;

  if (libmips && mips::getRequiredAbiMinor(*module) > libmips->abiMinor)
    return fail(libmips->path + " implements libmips ABI " + llvm::Twine(MIPS_RT_ABI_MAJOR) +
                "." + llvm::Twine(libmips->abiMinor) + ", older than the " +
                llvm::Twine(MIPS_RT_ABI_MAJOR) + "." +
                llvm::Twine(mips::getRequiredAbiMinor(*module)) + " this object's calls need");

  OutputFiles outputs;
  llvm::raw_pwrite_stream *out = outputs.open(outputFilename);
  if (!out)
    return 1;
  llvm::raw_pwrite_stream *headerOut = nullptr;
  if (!headerFilename.empty() && !(headerOut = outputs.open(headerFilename)))
    return 1;

  if (kind.first == "mlir") {
    module->print(*out);
  } else {
    emitOptions.kind = kind.first == "llvm"  ? mips::OutputKind::LLVMIR
                       : kind.first == "asm" ? mips::OutputKind::Assembly
                                              : mips::OutputKind::Object;
    if (failed(mips::emitModule(*module, emitOptions, config, *out)))
      return 1;
  }
  if (headerOut)
    *headerOut << header;
  outputs.keep();
  return 0;
}
