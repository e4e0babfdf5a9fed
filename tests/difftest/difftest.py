#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Differential testing of mips-compile: generated programs, compiled by mips-compile
and by upstream MLIR alone, must compute the same results (README.md).

Cases are generated in batches; each batch is one module. Per batch:
  1. the reference: upstream mlir-opt (bufferization, loops, LLVM), mlir-translate,
     clang, run natively with libm and MLIR's own runner utils;
  2. mips-compile for each target and linkage (import table, --static-embedding,
     --embed-libmips),
     linked with the same generated harness and run natively or under qemu-riscv64
     at each configured VLEN;
  3. every result compared with the reference within the case's tolerance.
A mismatch is kept as a self-contained reproducer, minimised by bypassing ops one at
a time while it still mismatches. A case the reference pipeline rejects is a
generator bug and is reported as such, apart from mismatches.
"""
import argparse
import collections
import math
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import generator  # noqa: E402
import harness  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
LLVM_BIN = "/usr/lib/llvm-22/bin"
LLVM_LIB = "/usr/lib/llvm-22/lib"
RISCV_SYSROOT = "/usr/riscv64-linux-gnu"

REFERENCE_PASSES = [
    "--tosa-to-linalg-pipeline", "--tosa-to-arith", "--tosa-to-tensor", "--convert-elementwise-to-linalg",
    "--one-shot-bufferize=bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map",
    "--buffer-deallocation-pipeline", "--convert-bufferization-to-memref",
    "--convert-linalg-to-loops", "--expand-strided-metadata", "--lower-affine",
    "--convert-scf-to-cf", "--convert-math-to-llvm", "--convert-math-to-libm",
    "--convert-arith-to-llvm", "--finalize-memref-to-llvm", "--convert-func-to-llvm",
    "--convert-cf-to-llvm", "--reconcile-unrealized-casts",
]

VLEN_CPUS = {
    "128": "rv64,v=true,vext_spec=v1.0,vlen=128",
    "256": "rv64,v=true,vext_spec=v1.0,vlen=256",
    "512": "rv64,v=true,vext_spec=v1.0,vlen=512",
    "1024": "rv64,v=true,vext_spec=v1.0,vlen=1024",
    "256ta": "rv64,v=true,vext_spec=v1.0,vlen=256,rvv_ta_all_1s=on,rvv_ma_all_1s=on",
    "1024ta": "rv64,v=true,vext_spec=v1.0,vlen=1024,rvv_ta_all_1s=on,rvv_ma_all_1s=on",
}


class ToolError(Exception):
    def __init__(self, what, command, output):
        super().__init__(what)
        self.what, self.command, self.output = what, command, output


def run(command, timeout=120, env=None, cwd=None):
    try:
        p = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           timeout=timeout, env=env, cwd=cwd)
    except subprocess.TimeoutExpired as e:
        return 124, (e.stdout or b"").decode(errors="replace") + f"\n(timed out after {timeout} s)"
    except OSError as e:  # the tool vanished or is being rebuilt
        return 126, f"cannot run {command[0]}: {e}"
    return p.returncode, p.stdout.decode(errors="replace")


def shell_line(command, env=None):
    import shlex
    prefix = " ".join(f"{k}={shlex.quote(v)}" for k, v in (env or {}).items())
    return (prefix + " " if prefix else "") + " ".join(shlex.quote(c) for c in command)


class Config:
    """One way of building and running mips-compile's output."""

    def __init__(self, name, target, linkage, cpu=None):
        self.name, self.target, self.linkage, self.cpu = name, target, linkage, cpu

    @property
    def build_key(self):
        return f"{self.target}-{self.linkage}"


class Toolchain:
    def __init__(self, args):
        self.mips_compile = os.path.abspath(args.mips_compile)
        self.libmips = {"x86_64": args.libmips_host and os.path.abspath(args.libmips_host),
                        "riscv64": args.libmips_riscv64 and os.path.abspath(args.libmips_riscv64)}
        self.extra_mips_options = args.mips_option or []
        self.clang = args.clang
        self.qemu = args.qemu
        self.timeout = args.timeout
        self.include = HERE

    # -- the reference

    def reference(self, work, cases):
        src = os.path.join(work, "reference.mlir")
        with open(src, "w") as f:
            f.write(harness.module_text(cases, reference=True))
        ll = os.path.join(work, "reference.ll")
        lowered = os.path.join(work, "reference.llvm.mlir")
        cmd = [os.path.join(LLVM_BIN, "mlir-opt"), src, *REFERENCE_PASSES, "-o", lowered]
        code, out = run(cmd, self.timeout)
        if code != 0:
            raise ToolError("the upstream reference pipeline rejected the program", cmd, out)
        cmd = [os.path.join(LLVM_BIN, "mlir-translate"), "--mlir-to-llvmir", lowered, "-o", ll]
        code, out = run(cmd, self.timeout)
        if code != 0:
            raise ToolError("mlir-translate rejected the reference", cmd, out)
        exe = os.path.join(work, "reference")
        cmd = [self.clang, "-O1", "-w", "-DDT_REFERENCE", f"-I{self.include}",
               os.path.join(work, "harness.c"), ll, "-o", exe, f"-L{LLVM_LIB}",
               "-lmlir_c_runner_utils", f"-Wl,-rpath,{LLVM_LIB}", "-lm"]
        code, out = run(cmd, self.timeout)
        if code != 0:
            raise ToolError("the reference did not link", cmd, out)
        return exe

    # -- mips-compile

    def compile(self, work, cases, config):
        src = os.path.join(work, "model.mlir")
        with open(src, "w") as f:
            f.write(harness.module_text(cases))
        obj = os.path.join(work, f"model-{config.build_key}.o")
        cmd = [self.mips_compile, src, f"--target={config.target}", "-o", obj]
        if config.linkage == "static":
            # The static linkage also bounds im2col buffers to 4 KiB, so that its
            # convolutions run in blocks of output rows.
            cmd += ["--static-embedding", "--mips-im2col-bytes=4096"]
        elif config.linkage == "embedded":
            cmd += ["--embed-libmips"]   # libmips's bitcode inside the object
        cmd += self.extra_mips_options
        code, out = run(cmd, self.timeout)
        if code != 0:
            raise ToolError("mips-compile rejected a program the reference accepts", cmd, out)
        exe = os.path.join(work, f"harness-{config.build_key}")
        cmd = [self.clang, "-O1", "-w", f"-I{self.include}", os.path.join(work, "harness.c"), obj,
               "-o", exe, "-lm"]
        if config.target == "riscv64":
            cmd[1:1] = ["--target=riscv64-linux-gnu", "-fuse-ld=lld", "-march=rv64gcv"]
        if config.linkage == "static":
            lib = self.libmips[config.target]
            cmd += [f"-L{lib}", "-lmips", f"-Wl,-rpath,{lib}"]
        elif config.linkage == "embedded":
            cmd += ["-lpthread"]   # nothing of libmips: it is in the object
        else:
            cmd += ["-ldl"]
        code, out = run(cmd, self.timeout)
        if code != 0:
            raise ToolError("the harness did not link with mips-compile's object", cmd, out)
        return obj, exe

    def run_command(self, config, exe, inputs, outputs, case=None):
        command = [exe, inputs, outputs] + ([str(case)] if case is not None else [])
        env = {"LD_LIBRARY_PATH": self.libmips[config.target] or ""}
        if config.target == "riscv64":
            command = [self.qemu, "-L", RISCV_SYSROOT, "-cpu", config.cpu] + command
        return command, env


# ---------------------------------------------------------------------------------
# Comparison


def decode(elem, raw):
    fmt = {"f32": "f", "i8": "b", "i32": "i"}[elem]
    n = len(raw) // generator.ELEM_BYTES[elem]
    return struct.unpack(f"<{n}{fmt}", raw)


def ulp(x):
    x = abs(x)
    if x < 2.0 ** -126:
        return 2.0 ** -149
    return 2.0 ** (math.frexp(x)[1] - 24)


def as_finite(x):
    """Infinities as 2^128, so that FLT_MAX against Inf is one ulp apart."""
    if math.isinf(x):
        return math.copysign(2.0 ** 128, x)
    return x


def compare(case, ref, got):
    """None if `got` matches `ref` for this case, else a one-line reason."""
    ref_flags, _, ref_raw = ref
    flags, _, raw = got
    names = {1: "an argument the function only reads was written",
             2: "the output was written outside its view",
             4: "the result is an argument's storage, not a new buffer"}
    for bit, what in names.items():
        if flags & bit and not ref_flags & bit:
            return what
    r = case.result
    if len(raw) != len(ref_raw):
        return f"{len(raw)} result bytes, the reference has {len(ref_raw)}"
    a, b = decode(r.elem, ref_raw), decode(r.elem, raw)
    abs_tol, ulps = r.tolerance()
    for i, (x, y) in enumerate(zip(a, b)):
        if r.elem != "f32" or (abs_tol == 0 and ulps == 0):
            if r.elem == "f32" and (x == y or (math.isnan(x) and math.isnan(y))):
                continue
            if r.elem != "f32" and x == y:
                continue
            return f"element {i}: {y!r}, reference {x!r} (exact)"
        if math.isnan(x) or math.isnan(y):
            if math.isnan(x) and math.isnan(y):
                continue
            return f"element {i}: {y!r}, reference {x!r} (NaN on one side only)"
        fx, fy = as_finite(x), as_finite(y)
        tol = abs_tol + ulps * max(ulp(fx), ulp(fy))
        if abs(fx - fy) > tol:
            return f"element {i}: {y!r}, reference {x!r}, difference {abs(fx - fy):.3g} > tolerance {tol:.3g}"
    return None


# ---------------------------------------------------------------------------------
# Reproducers


def write_reproducer(directory, case, config, toolchain, reason, ref, got, minimised_from=None):
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, "case.mlir"), "w") as f:
        f.write(generator.case_spec(case) + "\n" + harness.module_text([case]))
    with open(os.path.join(directory, "reference.mlir"), "w") as f:
        f.write(harness.module_text([case], reference=True))
    with open(os.path.join(directory, "harness.c"), "w") as f:
        f.write(harness.harness_source([case]))
    with open(os.path.join(directory, "inputs.bin"), "wb") as f:
        f.write(harness.inputs_blob([case]))
    shutil.copy(os.path.join(HERE, "difftest_harness.h"), directory)
    r = case.result
    with open(os.path.join(directory, "outputs.txt"), "w") as f:
        f.write(f"mismatch: {reason}\n")
        f.write(f"configuration: {config.name}\n")
        f.write(f"result: {r.type}, tolerance (absolute, ulps) = {r.tolerance()}\n")
        for label, out in (("reference", ref), ("mips-compile", got)):
            if out is None:
                f.write(f"{label}: no output\n")
                continue
            flags, _, raw = out
            values = decode(r.elem, raw)
            f.write(f"{label} (flags {flags}): {list(values)}\n")
        for i, a in enumerate(case.args):
            f.write(f"arg{i}: {a.type}, view {a.view}, data {a.data_kind}: {a.data}\n")
    vlen = next((v for v, cpu in VLEN_CPUS.items() if cpu == config.cpu), "256")
    command = [sys.executable, os.path.abspath(__file__), "--mips-compile", toolchain.mips_compile,
               "--targets", "host" if config.target == "x86_64" else "riscv64",
               "--linkages", config.linkage, "--vlens", vlen, "--qemu", toolchain.qemu,
               "--clang", toolchain.clang, "--findings", "findings", "--no-minimise"]
    if toolchain.libmips["x86_64"]:
        command += ["--libmips-host", toolchain.libmips["x86_64"]]
    if toolchain.libmips["riscv64"]:
        command += ["--libmips-riscv64", toolchain.libmips["riscv64"]]
    for option in toolchain.extra_mips_options:
        command.append(f"--mips-option={option}")
    with open(os.path.join(directory, "reproduce.sh"), "w") as f:
        f.write(f"""#!/bin/sh
# A difftest mismatch ({config.name}): {reason}
# Rebuilds both sides from case.mlir, runs them on inputs.bin and compares; exits 1
# while the mismatch is there. reference.mlir and harness.c are what it builds.
cd "$(dirname "$0")"
exec {shell_line(command)} --replay case.mlir
""")
    os.chmod(os.path.join(directory, "reproduce.sh"), 0o755)
    if minimised_from is not None:
        with open(os.path.join(directory, "original.mlir"), "w") as f:
            f.write(harness.module_text([minimised_from]))


# ---------------------------------------------------------------------------------
# Running batches


class Stats:
    def __init__(self):
        self.cases = 0
        self.runs = 0
        self.mismatches = []
        self.generator_bugs = []
        self.tool_failures = []
        self.emulator_faults = []
        self.op_mix = collections.Counter()
        self.matmul_shapes = collections.Counter()


def run_case_set(toolchain, configs, cases, work, stats, args, depth=0):
    """Builds and runs `cases` (one module) in every configuration; records what
    differs. A batch whose build fails is split to find the case responsible."""
    os.makedirs(work, exist_ok=True)
    with open(os.path.join(work, "harness.c"), "w") as f:
        f.write(harness.harness_source(cases))
    inputs = os.path.join(work, "inputs.bin")
    with open(inputs, "wb") as f:
        f.write(harness.inputs_blob(cases))
    try:
        ref_exe = toolchain.reference(work, cases)
    except ToolError as e:
        if len(cases) > 1:
            return split(toolchain, configs, cases, work, stats, args, depth, e)
        stats.generator_bugs.append((cases[0], e))
        keep_tool_failure(args, "generator", cases[0], e)
        return
    ref_out = os.path.join(work, "reference.out")
    code, out = run([ref_exe, inputs, ref_out], toolchain.timeout)
    if code != 0:
        e_batch = ToolError(f"the reference crashed (exit {code})", [ref_exe, inputs, ref_out], out)
        if len(cases) > 1:
            return split(toolchain, configs, cases, work, stats, args, depth, e_batch)
        e = ToolError(f"the reference crashed (exit {code})", [ref_exe, inputs, ref_out], out)
        stats.generator_bugs.append((cases[0], e))
        keep_tool_failure(args, "generator", cases[0], e)
        return
    reference = harness.read_outputs(ref_out)
    built = {}
    for config in configs:
        if config.build_key not in built:
            try:
                built[config.build_key] = toolchain.compile(work, cases, config)
            except ToolError as e:
                if len(cases) > 1:
                    return split(toolchain, configs, cases, work, stats, args, depth, e)
                stats.tool_failures.append((cases[0], config, e))
                keep_tool_failure(args, config.name, cases[0], e)
                built[config.build_key] = None
        if built[config.build_key] is None:
            continue
        _, exe = built[config.build_key]
        out_path = os.path.join(work, f"out-{config.name}")
        command, env = toolchain.run_command(config, exe, inputs, out_path)
        code, output = run(command, toolchain.timeout, env={**os.environ, **env})
        stats.runs += 1
        results = harness.read_outputs(out_path) if os.path.exists(out_path) else {}
        if code != 0:
            # A crash may come from damage an earlier case did: every case the run did
            # not finish, and the one it stopped in, run again one at a time. An
            # assertion inside qemu itself is the emulator's bug, counted apart.
            batch_code, batch_output = code, output
            announced = [l for l in output.splitlines() if l.startswith("case ")]
            stopped = int(announced[-1].split()[1]) if announced else 0
            results = {i: r for i, r in results.items() if i < stopped}
            recorded = len(stats.mismatches)
            for i in range(stopped, len(cases)):
                one = out_path + f".{i}"
                command, env = toolchain.run_command(config, exe, inputs, one, case=i)
                code, output = run(command, toolchain.timeout, env={**os.environ, **env})
                got = harness.read_outputs(one).get(i) if os.path.exists(one) else None
                if code != 0 and is_emulator_fault(output):
                    record_emulator_fault(config, cases[i], output, stats)
                elif code != 0 or got is None:
                    record_mismatch(toolchain, config, cases[i], f"exit status {code}: {output.strip()[-200:]}",
                                    reference.get(i), None, stats, args)
                else:
                    results[i] = got
            if len(stats.mismatches) == recorded and not is_emulator_fault(batch_output):
                record_mismatch(toolchain, config, cases[stopped],
                                f"exit status {batch_code} with the whole batch, none alone: "
                                + " | ".join(batch_output.strip().splitlines()[-3:]),
                                reference.get(stopped), None, stats, args)
        for i, case in enumerate(cases):
            if i not in results or i not in reference:
                continue
            reason = compare(case, reference[i], results[i])
            if reason:
                record_mismatch(toolchain, config, case, reason, reference[i], results[i], stats, args)


def split(toolchain, configs, cases, work, stats, args, depth, error=None):
    """Runs the halves of a batch whose build or reference failed; if both halves
    pass, the failure needs the cases together, and the batch is the finding."""
    before = (len(stats.mismatches), len(stats.generator_bugs), len(stats.tool_failures))
    half = len(cases) // 2
    for part, sub in ((cases[:half], "a"), (cases[half:], "b")):
        run_case_set(toolchain, configs, part, os.path.join(work, sub), stats, args, depth + 1)
    after = (len(stats.mismatches), len(stats.generator_bugs), len(stats.tool_failures))
    if before == after and error is not None:
        stats.tool_failures.append((cases[0], None, error))
        directory = os.path.join(args.findings, f"batch-{cases[0].name}-to-{cases[-1].name}-seed{args.seed}")
        os.makedirs(directory, exist_ok=True)
        with open(os.path.join(directory, "module.mlir"), "w") as f:
            f.write(harness.module_text(cases))
        with open(os.path.join(directory, "error.txt"), "w") as f:
            f.write(f"{error.what} (only with these cases in one module)\n$ {shell_line(error.command)}\n{error.output}\n")
        print(f"  batch {cases[0].name}..{cases[-1].name}: {error.what}, only together (kept in {directory})", flush=True)


def keep_tool_failure(args, kind, case, error):
    directory = os.path.join(args.findings, f"{kind}-{case.name}-seed{args.seed}")
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, "case.mlir"), "w") as f:
        f.write(generator.case_spec(case) + "\n" + harness.module_text([case]))
    with open(os.path.join(directory, "error.txt"), "w") as f:
        f.write(f"{error.what}\n$ {shell_line(error.command)}\n{error.output}\n")
    print(f"  {kind}: {case.name}: {error.what} (kept in {directory})", flush=True)
    print("    " + "\n    ".join(error.output.strip().splitlines()[:6]), flush=True)


def is_emulator_fault(output):
    """qemu-user failing its own assertion (qemu 7.2 does on `vfcvt.rtz.x.f.v`, the
    vector fptosi, in decode_save_opc: qemu issue 1441, fixed in 8.0)."""
    return "qemu-riscv64: " in output and "Assertion" in output


def record_emulator_fault(config, case, output, stats):
    line = next((l for l in output.splitlines() if l.startswith("qemu-riscv64: ")), "")
    stats.emulator_faults.append((case, config, line))
    print(f"  emulator fault {case.name} [{config.name}], not counted as a mismatch: {line}", flush=True)


def record_mismatch(toolchain, config, case, reason, ref, got, stats, args):
    directory = os.path.join(args.findings, f"mismatch-{case.name}-seed{args.seed}-{config.name}")
    minimised = case
    if args.minimise:
        minimised = minimise(toolchain, config, case, args, reason)
    write_reproducer(directory, minimised, config, toolchain, reason, ref, got,
                     minimised_from=case if minimised is not case else None)
    stats.mismatches.append((case, config, reason, directory))
    print(f"  MISMATCH {case.name} [{config.name}]: {reason}", flush=True)
    print(f"    reproducer: {directory}/ (case.mlir, inputs.bin, outputs.txt, reproduce.sh)", flush=True)
    with open(os.path.join(directory, "case.mlir")) as f:
        print("    " + "\n    ".join(f.read().splitlines()), flush=True)


def failure_kind(reason):
    """crash, exact, tolerance, NaN, flags, size: what kind of difference a reason is."""
    for key, kind in (("exit status", "crash"), ("(exact)", "exact"), ("NaN", "nan"),
                      ("tolerance", "tolerance"), ("bytes", "size")):
        if key in reason:
            return kind
    return "flags"


def still_mismatches(toolchain, config, case, args, kind=None):
    work = tempfile.mkdtemp(prefix="difftest-min-", dir=args.work)
    try:
        with open(os.path.join(work, "harness.c"), "w") as f:
            f.write(harness.harness_source([case]))
        inputs = os.path.join(work, "inputs.bin")
        with open(inputs, "wb") as f:
            f.write(harness.inputs_blob([case]))
        try:
            ref_exe = toolchain.reference(work, [case])
            _, exe = toolchain.compile(work, [case], config)
        except ToolError:
            return False
        ref_out = os.path.join(work, "ref.out")
        if run([ref_exe, inputs, ref_out], toolchain.timeout)[0] != 0:
            return False
        out = os.path.join(work, "out")
        command, env = toolchain.run_command(config, exe, inputs, out)
        code, _ = run(command, toolchain.timeout, env={**os.environ, **env})
        if code != 0:
            return kind in (None, "crash")
        ref = harness.read_outputs(ref_out).get(0)
        got = harness.read_outputs(out).get(0)
        if ref is None or got is None:
            return False
        reason = compare(case, ref, got)
        return reason is not None and (kind is None or failure_kind(reason) == kind)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def minimise(toolchain, config, case, args, reason):
    """Bypasses ops one at a time while the same kind of mismatch stays (one build
    per op). The bypassed ops' error bounds stay those of the original case."""
    kind = failure_kind(reason)
    current = case
    changed = True
    while changed:
        changed = False
        for i in range(len(current.ops)):
            smaller = current.without(i)
            if smaller is None:
                continue
            if still_mismatches(toolchain, config, smaller, args, kind):
                current = smaller
                changed = True
                break
    return current


def print_progress(stats, start):
    print(f"difftest: {stats.cases} cases, {stats.runs} runs, {len(stats.mismatches)} mismatches, "
          f"{len(stats.generator_bugs)} generator bugs, {len(stats.tool_failures)} compile failures "
          f"({time.time() - start:.0f} s)", flush=True)


def parse_configs(args):
    configs = []
    for target in args.targets.split(","):
        for linkage in args.linkages.split(","):
            if linkage not in ("dynamic", "static", "embedded"):
                raise SystemExit(f"difftest: unknown linkage '{linkage}' (dynamic, static, embedded)")
            if target in ("host", "x86_64"):
                configs.append(Config(f"x86_64-{linkage}", "x86_64", linkage))
            else:
                for vlen in args.vlens.split(","):
                    configs.append(Config(f"riscv64-{linkage}-vlen{vlen}", "riscv64", linkage, VLEN_CPUS[vlen]))
    return configs


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--mips-compile", required=True)
    p.add_argument("--libmips-host", help="build directory holding the host libmips.so.1 and libmips.a")
    p.add_argument("--libmips-riscv64", help="the same for riscv64")
    p.add_argument("--targets", default="host", help="host, riscv64 or both (comma-separated)")
    p.add_argument("--linkages", default="dynamic,static",
                   help="dynamic (import table), static (--static-embedding), embedded (--embed-libmips)")
    p.add_argument("--vlens", default="128,1024,256ta", help=f"riscv64 VLENs: {', '.join(VLEN_CPUS)}")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--cases", type=int, default=100, help="cases to generate")
    p.add_argument("--first", type=int, default=0, help="index of the first case")
    p.add_argument("--batch", type=int, default=24, help="cases per module")
    p.add_argument("--time-budget", type=float, default=0, help="stop starting batches after this many seconds")
    p.add_argument("--timeout", type=float, default=300)
    p.add_argument("--mips-option", action="append", help="an extra mips-compile option (repeatable)")
    p.add_argument("--clang", default="clang-22")
    p.add_argument("--qemu", default="qemu-riscv64")
    p.add_argument("--findings", default="difftest-findings")
    p.add_argument("--work", default=None, help="scratch directory (default: a new temporary one)")
    p.add_argument("--keep-work", action="store_true")
    p.add_argument("--no-minimise", dest="minimise", action="store_false")
    p.add_argument("--stop-on-first", action="store_true", help="stop after the first batch with a finding")
    p.add_argument("--print-case", type=int, help="print the case with this index and exit")
    p.add_argument("--fresh-data", action="store_true",
                   help="with --replay: generate data even where an inputs.bin lies beside the case")
    p.add_argument("--replay", nargs="+", metavar="CASE.mlir",
                   help="run these saved cases (reproducers' case.mlir, tests/difftest/regressions/) instead")
    args = p.parse_args()

    if args.print_case is not None:
        case = generator.generate_case(args.seed, args.print_case)
        print(harness.module_text([case]), end="")
        return 0
    configs = parse_configs(args)
    for c in configs:
        if c.linkage == "static" and not (args.libmips_host if c.target == "x86_64" else args.libmips_riscv64):
            p.error(f"{c.name} needs --libmips-{'host' if c.target == 'x86_64' else 'riscv64'}")
    toolchain = Toolchain(args)
    own_work = args.work is None
    args.work = tempfile.mkdtemp(prefix="difftest-") if own_work else os.path.abspath(args.work)
    os.makedirs(args.work, exist_ok=True)
    args.findings = os.path.abspath(args.findings)
    stats = Stats()
    start = time.time()
    index = args.first
    end = args.first + args.cases
    print(f"difftest: seed {args.seed}, cases {args.first}..{end - 1}, configurations: "
          f"{', '.join(c.name for c in configs)}", flush=True)
    if args.replay:
        cases = []
        for i, path in enumerate(args.replay):
            stem = "".join(ch if ch.isalnum() else "_" for ch in os.path.splitext(os.path.basename(path))[0])
            with open(path) as f:
                text = f.read()
            try:
                case = generator.ReplayCase(text, f"replay{i}_{stem}",
                                            data_seed=f"{args.seed}:{os.path.basename(path)}")
                inputs = os.path.join(os.path.dirname(path), "inputs.bin")
                if os.path.exists(inputs) and not args.fresh_data:
                    case.load_inputs(inputs)
                cases.append(case)
            except ValueError as e:
                print(f"difftest: {path}: {e}")
                return 2
        print(f"difftest: replaying {len(cases)} saved cases", flush=True)
        run_case_set(toolchain, configs, cases, os.path.join(args.work, "replay"), stats, args)
        stats.cases += len(cases)
        stats.op_mix.update(["replayed"] * len(cases))
        end = index
    while index < end:
        if args.time_budget and time.time() - start > args.time_budget:
            print(f"difftest: time budget of {args.time_budget:.0f} s reached", flush=True)
            break
        count = min(args.batch, end - index)
        cases = [generator.generate_case(args.seed, i) for i in range(index, index + count)]
        for case in cases:
            stats.op_mix.update(case.op_mix())
        work = os.path.join(args.work, f"batch{index}")
        run_case_set(toolchain, configs, cases, work, stats, args)
        if not args.keep_work:
            shutil.rmtree(work, ignore_errors=True)
        stats.cases += count
        index += count
        if args.stop_on_first and (stats.mismatches or stats.tool_failures):
            print_progress(stats, start)
            break
        print_progress(stats, start)
    if own_work and not args.keep_work:
        shutil.rmtree(args.work, ignore_errors=True)
    mix = ", ".join(f"{k} {v}" for k, v in sorted(stats.op_mix.items()))
    print(f"difftest: op mix: {mix}")
    print(f"difftest: done: {stats.cases} cases (seed {args.seed}), {stats.runs} runs; "
          f"{len(stats.mismatches)} mismatches, {len(stats.tool_failures)} mips-compile failures, "
          f"{len(stats.generator_bugs)} generator bugs" +
          (f"; {len(stats.emulator_faults)} runs stopped by qemu's own assertion (not counted)"
           if stats.emulator_faults else ""))
    if stats.generator_bugs:
        print("difftest: the generator made programs upstream rejects: that is the generator's bug, not mips-compile's")
    return 1 if stats.mismatches or stats.tool_failures or stats.generator_bugs else 0


if __name__ == "__main__":
    sys.exit(main())
