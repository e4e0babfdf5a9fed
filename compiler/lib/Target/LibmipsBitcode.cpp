// SPDX-License-Identifier: Apache-2.0
//===- LibmipsBitcode.cpp - libmips embedded as bitcode -------------------===//

#include "mips-compiler/Target/LibmipsBitcode.h"
#include "mips-compiler/Runtime/RequiredAbi.h"
#include "mips-compiler/Target/Target.h"

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/IPO/Internalize.h"

using namespace mlir;

/// Written by compiler/libmips-bitcode/bitcode_abi.c: MIPS_ABI_VERSION.
static constexpr llvm::StringLiteral kAbiGlobal = "__mips_bitcode_abi_version";

std::string mips::defaultLibmipsBitcodePath(const char *argv0, void *mainAddress,
                                            const TargetSpec &target) {
  llvm::SmallString<256> path(llvm::sys::fs::getMainExecutable(argv0, mainAddress));
  llvm::sys::path::remove_filename(path); // .../bin
  llvm::sys::path::remove_filename(path);
  llvm::sys::path::append(path, "share", "mips", ("libmips-" + target.name + ".bc").str());
  return std::string(path);
}

static llvm::Expected<std::unique_ptr<llvm::Module>>
parseLibmips(llvm::StringRef bytes, llvm::LLVMContext &context) {
  auto module = llvm::parseBitcodeFile(llvm::MemoryBufferRef(bytes, "libmips"), context);
  if (!module)
    return llvm::createStringError("not LLVM bitcode (" + llvm::toString(module.takeError()) +
                                   ")");
  return module;
}

llvm::Expected<unsigned> mips::checkLibmipsBitcode(llvm::StringRef bytes,
                                                   const TargetSpec &target) {
  llvm::LLVMContext context;
  llvm::Expected<std::unique_ptr<llvm::Module>> module = parseLibmips(bytes, context);
  if (!module)
    return module.takeError();
  llvm::Triple triple((*module)->getTargetTriple());
  if (triple.getArch() != llvm::Triple(target.triple).getArch())
    return llvm::createStringError("is libmips bitcode for " + triple.getArchName() +
                                   ", not for " + target.name + " (expected libmips-" +
                                   target.name + ".bc)");
  auto *abi = (*module)->getGlobalVariable(kAbiGlobal);
  auto *value = abi && abi->hasInitializer()
                    ? llvm::dyn_cast<llvm::ConstantInt>(abi->getInitializer())
                    : nullptr;
  if (!value)
    return llvm::createStringError("is not libmips bitcode (it has no " + kAbiGlobal + ")");
  const uint64_t version = value->getZExtValue();
  if ((version >> 16) != MIPS_RT_ABI_MAJOR)
    return llvm::createStringError(
        llvm::Twine("implements libmips ABI ") + llvm::Twine(version >> 16) + "." +
        llvm::Twine(version & 0xffff) + "; this mips-compile needs " +
        llvm::Twine(MIPS_RT_ABI_MAJOR) + ".x");
  return static_cast<unsigned>(version & 0xffff);
}

llvm::Error mips::embedLibmips(llvm::Module &module, llvm::StringRef bytes,
                               llvm::function_ref<bool(llvm::StringRef)> keep) {
  llvm::Expected<std::unique_ptr<llvm::Module>> libmips = parseLibmips(bytes, module.getContext());
  if (!libmips)
    return libmips.takeError();
  (*libmips)->setTargetTriple(module.getTargetTriple());
  (*libmips)->setDataLayout(module.getDataLayout());
  // Only what the model's calls reach: an f32 model carries no int8 kernels.
  if (llvm::Linker::linkModules(module, std::move(*libmips), llvm::Linker::LinkOnlyNeeded))
    return llvm::createStringError("cannot link libmips's bitcode into the module");
  // Two embedded objects in one program must not clash, and no libmips.so may
  // interpose: only the model's functions and the runtime's API stay visible.
  llvm::internalizeModule(module, [&](const llvm::GlobalValue &value) {
    return keep(value.getName()) || value.getName().starts_with("mipsrt_");
  });
  return llvm::Error::success();
}
