/* SPDX-License-Identifier: Apache-2.0 */
//===- Target.h - from the LLVM dialect to files ----------------*- C++ -*-===//

#ifndef MIPS_TARGET_TARGET_H
#define MIPS_TARGET_TARGET_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace mlir {
namespace mips {

/// The targets mips-compile emits code for.
struct TargetSpec {
  llvm::StringRef name;            // as given to --target
  llvm::StringRef triple;
  llvm::StringRef cpu;
  llvm::StringRef defaultFeatures; // --mattr adds to these
  llvm::StringRef abiName;         // empty: the triple's default
};

/// Every supported target; the first is the default.
llvm::ArrayRef<TargetSpec> getSupportedTargets();

/// Looks a target up by --target name.
const TargetSpec *lookupTarget(llvm::StringRef name);

enum class OutputKind { LLVMIR, Assembly, Object };

struct EmitOptions {
  const TargetSpec *target = nullptr;
  std::string cpu;           // --mcpu; empty: the target's
  std::string march;         // --march, an ISA string (riscv64 only); empty: the defaults
  std::string extraFeatures; // --mattr: +feature/-feature, applied last
  bool staticEmbedding = false;
  /// --embed-libmips: libmips's bitcode, checked (LibmipsBitcode.h), linked into the
  /// module; empty for the other two linkages. Calls are direct, as with
  /// staticEmbedding.
  llvm::StringRef libmipsBitcode;
  unsigned optLevel = 2;
  OutputKind kind = OutputKind::Object;
};

/// The target of one compile, resolved once from the options (mips-compile) and
/// carried down: the CPU and LLVM feature string that `options` stand for, and what
/// the pipeline needs to know of them.
struct TargetMachineConfig {
  std::string cpu;
  std::string features;
  /// riscv64 with V: the compiler's own vector code uses scalable vectors.
  bool scalableVectors = false;
  /// Fused multiply-add instructions: every RISC-V core with F (rv64gc), an x86-64
  /// CPU with FMA (not the generic x86-64 one).
  bool fusedMultiplyAdd = false;
};

/// Checks --mcpu, --march and --mattr against what LLVM knows of the target and
/// resolves them. On riscv64 the ISA is resolved the way clang resolves -march: the
/// defaults (or --march) with --mattr's additions and removals, every extension they
/// imply, and an explicit removal of every other one, so --mattr=-v also drops the
/// Zve*/Zvl* extensions V implies. The error text is ready for the user.
llvm::Expected<TargetMachineConfig> resolveTargetMachineConfig(const EmitOptions &options);

/// Translates a module in the LLVM dialect to LLVM IR, links in the mips runtime
/// for the target and linking mode, optimizes, and writes `options.kind` to `os`,
/// for the machine `config` (resolveTargetMachineConfig(options)). Errors are
/// reported through the module's diagnostics.
LogicalResult emitModule(ModuleOp module, const EmitOptions &options,
                         const TargetMachineConfig &config, llvm::raw_pwrite_stream &os);

/// Writes a C header declaring the _mlir_ciface_ wrapper of every public
/// function of `module` (taken before lowering, on tensors or memrefs), the
/// memref descriptor structs they take and the mips runtime API; `linkage` says how
/// the object reaches libmips.
LogicalResult emitCHeader(ModuleOp module, llvm::StringRef guard,
                          llvm::StringRef sourceName, llvm::StringRef linkage,
                          llvm::raw_ostream &os);

} // namespace mips
} // namespace mlir

#endif // MIPS_TARGET_TARGET_H
