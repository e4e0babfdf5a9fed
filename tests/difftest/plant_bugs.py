#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Does the differential tester catch miscompiles? Plants one bug at a time into a
copy of mips-compile's sources, rebuilds it, and runs difftest.py until its first
finding: every planted bug must be caught within the case budget, and the unplanted
compiler must run the same cases clean.

usage: plant_bugs.py --source <repo> --build <scratch build dir> --libmips-host <dir>
                     [--cases N] [--only name,...]
"""
import argparse
import os
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))

PLANTED_TANH_PASS = """
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
namespace {
// Planted by tests/difftest/plant_bugs.py: tanh(x) computed as tanh(x + 1e-6), an
// approximation that is wrong near 0 only.
struct PlantedTanhNearZero
    : public mlir::PassWrapper<PlantedTanhNearZero, mlir::OperationPass<mlir::ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(PlantedTanhNearZero)
  void runOnOperation() override {
    getOperation()->walk([](mlir::math::TanhOp op) {
      if (!op.getType().isF32()) return;
      mlir::OpBuilder b(op);
      mlir::Value bias = mlir::arith::ConstantOp::create(b, op.getLoc(), b.getF32FloatAttr(1e-6f));
      mlir::Value moved = mlir::arith::AddFOp::create(b, op.getLoc(), op.getOperand(), bias);
      op->setOperand(0, moved);
    });
  }
};
} // namespace
"""

# name: (file, text that must be there, its replacement, what it does)
PLANTS = {
    "transposed-map": (
        "compiler/lib/Dialect/Mips/Contractions.cpp",
        "          transposed = swap;\n",
        "          transposed = swap && withBatch;\n",
        "a transposed operand of a 2-D matmul is read as if it were not transposed"),
    "inline-row-off-by-one": (
        "compiler/lib/Conversion/MipsToVector/MipsToVector.cpp",
        "  for (int64_t i = 0; i < m; ++i) {\n",
        "  for (int64_t i = 0; i + 1 < m; ++i) {\n",
        "the inline code's row loop stops one row early"),
    "zero-point-dropped": (
        "compiler/lib/Transforms/DecomposeQuantizedMatmuls.cpp",
        "bool zaIsZero = matchPattern(za, m_Zero()), zbIsZero",
        "bool zaIsZero = true, zbIsZero",
        "a quantized matmul drops the correction for A's zero point"),
    "accumulate-for-overwrite": (
        "compiler/lib/Conversion/MipsToLibmips/MipsToLibmips.cpp",
        "(op.getOverwrite() ? 0 : MIPS_MATMUL_ACCUMULATE) |",
        "MIPS_MATMUL_ACCUMULATE |",
        "a libmips call accumulates where the product should overwrite C"),
    "tanh-wrong-near-zero": (
        "compiler/lib/Pipelines/Pipelines.cpp",
        "  addFrontendPasses(pm);\n",
        "  addFrontendPasses(pm);\n  pm.addPass(std::make_unique<PlantedTanhNearZero>());\n",
        "math.tanh is approximated by something wrong near 0"),
}
EXTRA = {"tanh-wrong-near-zero": ("compiler/lib/Pipelines/Pipelines.cpp", "using namespace mlir;\n",
                                  "using namespace mlir;\n" + PLANTED_TANH_PASS)}


def sh(command, **kw):
    print("$ " + " ".join(command), flush=True)
    return subprocess.run(command, **kw)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--source", required=True, help="the repository (its sources are copied)")
    p.add_argument("--build", required=True, help="scratch directory for the planted copies")
    p.add_argument("--libmips-host", required=True)
    p.add_argument("--cases", type=int, default=400, help="the most cases a plant may take to be caught")
    p.add_argument("--seed", type=int, default=11)
    p.add_argument("--only", default="", help="comma-separated plant names")
    args = p.parse_args()

    source = os.path.abspath(args.source)
    build = os.path.abspath(args.build)
    copy = os.path.join(build, "src")
    tree = os.path.join(build, "build")
    os.makedirs(build, exist_ok=True)
    # A copy of the sources the plants can edit; the build tree is kept between runs.
    # (bench/plugin: the region markers mips-run's harness is built with.)
    for part in ("CMakeLists.txt", "cmake", "compiler", "libmips", "blas", "python", "abi", "pkgconfig",
                 "LICENSE", "bench/plugin"):
        src, dst = os.path.join(source, part), os.path.join(copy, part)
        if os.path.isdir(src):
            shutil.copytree(src, dst, dirs_exist_ok=True)
        else:
            os.makedirs(copy, exist_ok=True)
            shutil.copy2(src, dst)
    configure = ["cmake", "-S", copy, "-B", tree, "-G", "Ninja", "-DMIPS_BUILD_TESTS=OFF",
                 "-DMIPS_BUILD_EXAMPLES=OFF", "-DMIPS_BUILD_BENCH=OFF"]
    if sh(configure, stdout=subprocess.DEVNULL).returncode != 0:
        return 2
    mips_compile = os.path.join(tree, "compiler", "bin", "mips-compile")
    names = [n for n in args.only.split(",") if n] or list(PLANTS)
    caught, missed = [], []
    for name in ["none"] + names:
        edits = []
        if name != "none":
            edits.append(PLANTS[name][:3])
            if name in EXTRA:
                edits.append(EXTRA[name])
        originals = {}
        try:
            for path, old, new in edits:
                full = os.path.join(copy, path)
                text = originals.setdefault(full, open(full).read())
                current = open(full).read()
                if old not in current:
                    print(f"plant {name}: {path} no longer contains the text it plants into; update plant_bugs.py")
                    return 2
                with open(full, "w") as f:
                    f.write(current.replace(old, new, 1))
            start = time.time()
            if sh(["cmake", "--build", tree, "--target", "mips-compile"], stdout=subprocess.DEVNULL).returncode != 0:
                print(f"plant {name}: the planted compiler does not build")
                return 2
            built = time.time() - start
            findings = os.path.join(build, f"findings-{name}")
            shutil.rmtree(findings, ignore_errors=True)
            command = [sys.executable, os.path.join(HERE, "difftest.py"), "--mips-compile", mips_compile,
                       "--libmips-host", args.libmips_host, "--seed", str(args.seed),
                       "--cases", str(args.cases), "--batch", "40", "--findings", findings,
                       "--no-minimise", "--stop-on-first"]
            start = time.time()
            result = sh(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
            out = result.stdout.decode(errors="replace")
            found = [l for l in out.splitlines() if l.startswith("  MISMATCH") or l.startswith("  x86_64")]
            summary = [l for l in out.splitlines() if l.startswith("difftest: done")]
            took = time.time() - start
            if name == "none":
                if result.returncode != 0:
                    print(out)
                    print("plant_bugs: the unplanted compiler is not clean on these cases")
                    return 1
                print(f"unplanted: clean ({summary[0] if summary else ''}; {took:.0f} s)")
                continue
            if found:
                caught.append(name)
                print(f"plant {name} ({PLANTS[name][3]}): caught in {took:.0f} s (rebuild {built:.0f} s): {found[0].strip()}")
            else:
                missed.append(name)
                print(out)
                print(f"plant {name} ({PLANTS[name][3]}): NOT caught in {args.cases} cases")
        finally:
            for full, text in originals.items():
                with open(full, "w") as f:
                    f.write(text)
    print(f"plant_bugs: {len(caught)} of {len(names)} planted bugs caught" +
          (f"; missed: {', '.join(missed)}" if missed else ""))
    # Leave the copy's compiler unplanted.
    sh(["cmake", "--build", tree, "--target", "mips-compile"], stdout=subprocess.DEVNULL)
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
