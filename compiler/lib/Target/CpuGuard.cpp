// SPDX-License-Identifier: Apache-2.0
//===- CpuGuard.cpp - exported functions check the CPU first ----*- C++ -*-===//
//
// Each exported function F of a riscv64 model is renamed and made internal; a new
// function of F's name and type calls F while this object's flag is set, and until
// then a cold one that runs the runtime's check_cpu first. The guard's own target features have no vector
// extension, so no vector instruction can run before the check (and the inliner,
// which never inlines a callee needing features its caller lacks, keeps F apart).
//
//===----------------------------------------------------------------------===//

#include "mips-compiler/Target/CpuGuard.h"

#include "mips-compiler/Runtime/Imports.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"

#include <string>

using namespace mlir;

namespace {

/// The single-letter extensions AT_HWCAP reports, in ISA-string order.
constexpr llvm::StringLiteral kHwcapLetters = "imafdcv";

/// Whether `feature` (without its sign) is a vector extension: V itself, or one of the
/// Zve*/Zvl*/Zv* extensions V implies or builds on.
bool isVectorFeature(llvm::StringRef feature) {
  return feature == "v" || feature.starts_with("zv") || feature.starts_with("xsfv") ||
         feature.starts_with("xtheadv");
}

} // namespace

void mips::guardEntryPoints(llvm::Module &module, llvm::StringRef features, unsigned abiMinor,
                            llvm::function_ref<bool(llvm::StringRef)> isModelSymbol) {
  if (!module.getTargetTriple().isRISCV())
    return;
  llvm::SmallVector<llvm::StringRef> list;
  features.split(list, ',', -1, /*KeepEmpty=*/false);
  uint64_t required = 0;
  std::string isa = "rv64";
  llvm::SmallVector<std::string> guardFeatures;
  for (char letter : kHwcapLetters)
    if (llvm::is_contained(list, std::string("+") + letter) || letter == 'i') {
      required |= uint64_t{1} << (letter - 'a');
      isa += letter;
    }
  for (llvm::StringRef feature : list) {
    const bool vector = isVectorFeature(feature.drop_front());
    guardFeatures.push_back(((vector ? "-" : feature.take_front(1)) + feature.drop_front()).str());
  }
  const std::string guardFeatureString = llvm::join(guardFeatures, ",");

  llvm::LLVMContext &context = module.getContext();
  auto *i8 = llvm::Type::getInt8Ty(context);
  auto *i64 = llvm::Type::getInt64Ty(context);
  auto *ptr = llvm::PointerType::getUnqual(context);
  llvm::FunctionCallee checkCpu = module.getOrInsertFunction(
      mips::checkCpuSymbol(abiMinor),
      llvm::FunctionType::get(llvm::Type::getVoidTy(context), {i64, ptr, ptr, ptr}, false));
  // One flag per object: another object in the program may need other extensions.
  auto *checked = new llvm::GlobalVariable(module, i8, /*isConstant=*/false,
                                           llvm::GlobalValue::PrivateLinkage,
                                           llvm::ConstantInt::get(i8, 0), "mips.cpu_checked");

  llvm::SmallVector<llvm::Function *> entryPoints;
  for (llvm::Function &function : module)
    if (!function.isDeclaration() && !function.hasLocalLinkage() &&
        isModelSymbol(function.getName()))
      entryPoints.push_back(&function);
  llvm::Constant *isaString = nullptr;
  // A function of `body`'s type, without vector extensions, that ends in a tail call
  // of `body` with its own arguments.
  auto makeForwarder = [&](llvm::Function *body, const llvm::Twine &name,
                           llvm::GlobalValue::LinkageTypes linkage) {
    llvm::Function *forwarder =
        llvm::Function::Create(body->getFunctionType(), linkage, name, module);
    forwarder->copyAttributesFrom(body);
    forwarder->setLinkage(linkage);
    forwarder->removeFnAttr("target-features");
    forwarder->addFnAttr("target-features", guardFeatureString);
    forwarder->addFnAttr(llvm::Attribute::NoInline);
    return forwarder;
  };
  auto tailCall = [&](llvm::IRBuilder<> &builder, llvm::Function *from, llvm::Function *to) {
    llvm::SmallVector<llvm::Value *> arguments;
    for (llvm::Argument &argument : from->args())
      arguments.push_back(&argument);
    llvm::CallInst *call = builder.CreateCall(to, arguments);
    call->setTailCall();
    call->setAttributes(to->getAttributes());
    if (from->getReturnType()->isVoidTy())
      builder.CreateRetVoid();
    else
      builder.CreateRet(call);
  };
  for (llvm::Function *body : entryPoints) {
    const std::string name = body->getName().str();
    body->setName(name + ".mips_body");
    body->setLinkage(llvm::GlobalValue::InternalLinkage);
    body->setVisibility(llvm::GlobalValue::DefaultVisibility);
    // The first call: the check, then the body. Cold and apart, so that the guard's
    // every other call saves no register: a load, a branch and a jump.
    llvm::Function *first =
        makeForwarder(body, name + ".mips_check_cpu", llvm::GlobalValue::InternalLinkage);
    first->addFnAttr(llvm::Attribute::Cold);
    llvm::IRBuilder<> builder(llvm::BasicBlock::Create(context, "entry", first));
    if (!isaString)
      isaString = builder.CreateGlobalString(isa, "mips.isa");
    builder.CreateCall(checkCpu, {builder.getInt64(required), isaString,
                                  builder.CreateGlobalString(name, "mips.function"), checked});
    tailCall(builder, first, body);

    llvm::Function *guard = makeForwarder(body, name, llvm::GlobalValue::ExternalLinkage);
    llvm::BasicBlock *entry = llvm::BasicBlock::Create(context, "entry", guard);
    llvm::BasicBlock *run = llvm::BasicBlock::Create(context, "run", guard);
    llvm::BasicBlock *check = llvm::BasicBlock::Create(context, "check_cpu", guard);
    builder.SetInsertPoint(entry);
    llvm::Value *done = builder.CreateICmpNE(builder.CreateLoad(i8, checked), builder.getInt8(0));
    builder.CreateCondBr(done, run, check,
                         llvm::MDBuilder(context).createLikelyBranchWeights());
    builder.SetInsertPoint(run);
    tailCall(builder, guard, body);
    builder.SetInsertPoint(check);
    tailCall(builder, guard, first);
  }
}
