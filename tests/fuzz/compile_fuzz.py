#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Mutation fuzzer for mips-compile and mips-opt.

Takes the project's MLIR inputs (lit tests, examples, end-to-end models), mutates them
(truncation, line deletion, duplication and swaps, token flips, changed types, shapes,
literals and op names) and runs each mutant through the tools. Every run must end with
exit 0, or with exit 1 and an error located in the input (file:line:col: error:).
A crash, an exit code other than 0 or 1, a run longer than the timeout, or an error
without a location is a finding: the mutant and the tool's output are kept in the
findings directory, and the fuzzer exits 1.

  compile_fuzz.py --mips-compile BIN --mips-opt BIN --mutants N [--seed S] [--jobs J]
                  [--timeout SECONDS] [--findings DIR] [--tools mips-compile,mips-opt]
  compile_fuzz.py ... --replay FILE...   runs the given inputs instead of mutants
"""
import argparse
import concurrent.futures
import os
import random
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SEED_DIRS = ["compiler/test", "examples", "tests/e2e/models"]

# A located diagnostic: MLIR's "file:line:col: error:", line >= 1.
LOCATED = re.compile(r"^[^\s:][^:]*:[1-9][0-9]*:[0-9]+: error: ", re.M)

TYPES = ["f32", "f16", "bf16", "f64", "i8", "i32", "i64", "i1", "ui8", "si8", "index",
         "complex<f32>", "f8E4M3FN", "i4", "none", "vector<4xf32>"]
OPS = ["linalg.matmul", "linalg.batch_matmul", "linalg.matvec", "linalg.vecmat",
       "linalg.batch_reduce_matmul", "linalg.generic", "linalg.fill", "linalg.transpose",
       "linalg.quantized_matmul", "linalg.dot", "mips.matmul", "tensor.empty", "arith.constant",
       "arith.addf", "arith.muli", "func.return", "func.call", "memref.alloc", "memref.dealloc",
       "bufferization.to_tensor", "tosa.matmul", "scf.for", "vector.print"]
LITERALS = ["0", "1", "-1", "2", "3", "4", "7", "16", "255", "-128", "2147483648",
            "9223372036854775807", "99999999999999999999", "0.5", "1.0e40", "0x7FC00000", "?"]
PUNCTUATION = list("{}()<>[]:,=%@\"x-")
TOKEN = re.compile(r"[A-Za-z_][A-Za-z0-9_.$]*|%[A-Za-z0-9_#]+|@[A-Za-z0-9_]+|-?[0-9]+(\.[0-9]+)?|\S")
SHAPE = re.compile(r"(tensor|memref|vector)<([^<>]*)>")


def seed_inputs():
    """Every .mlir of the project, split at '// -----' like -split-input-file."""
    seeds = []
    for d in SEED_DIRS:
        for dirpath, _, files in os.walk(os.path.join(ROOT, d)):
            for f in sorted(files):
                if f.endswith(".mlir"):
                    path = os.path.join(dirpath, f)
                    with open(path, encoding="utf-8") as fh:
                        text = fh.read()
                    for chunk in text.split("// -----"):
                        if chunk.strip():
                            seeds.append((path, chunk))
    return sorted(seeds)


def opt_args_of(path):
    """The mips-opt flags of a lit file's RUN lines, without checks of its own."""
    args = []
    # One command per RUN line (a line ending in a backslash continues on the next).
    runs, current = [], ""
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            if "RUN:" not in line:
                continue
            text = line.split("RUN:", 1)[1].rstrip("\n")
            current += " " + text.rstrip("\\")
            if not text.rstrip().endswith("\\"):
                runs.append(current)
                current = ""
    for m in (re.search(r"mips-opt %s([^|]*)", run) for run in runs):
        if not m:
            continue
        # Without lit's own checks (either spelling) and shell redirections (2>&1).
        flags = [a for a in shlex.split(m.group(1))
                 if a.lstrip("-") not in ("verify-diagnostics", "split-input-file") and ">" not in a]
        args.append(flags)
    return args or [["--mips-lower-to-llvm"], []]


def mutate_shape(rng, text):
    matches = list(SHAPE.finditer(text))
    if not matches:
        return text
    m = rng.choice(matches)
    dims = m.group(2).split("x")
    choice = rng.randrange(4)
    if choice == 0 and len(dims) > 1:
        dims[rng.randrange(len(dims) - 1)] = rng.choice(["0", "1", "3", "?", "65536", "4294967296"])
    elif choice == 1:
        dims[-1] = rng.choice(TYPES)
    elif choice == 2 and len(dims) > 1:
        del dims[rng.randrange(len(dims) - 1)]
    else:
        dims.insert(0, rng.choice(["1", "2", "?"]))
    return text[:m.start(2)] + "x".join(dims) + text[m.end(2):]


def mutate(rng, text):
    lines = text.split("\n")
    kind = rng.randrange(9)
    if kind == 0:  # truncate
        return text[:rng.randrange(len(text) + 1)]
    if kind == 1 and len(lines) > 1:  # delete a line
        del lines[rng.randrange(len(lines))]
        return "\n".join(lines)
    if kind == 2:  # duplicate a line
        i = rng.randrange(len(lines))
        lines.insert(i, lines[i])
        return "\n".join(lines)
    if kind == 3 and len(lines) > 1:  # swap two lines
        i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
        return "\n".join(lines)
    if kind == 4:
        return mutate_shape(rng, text)
    tokens = list(TOKEN.finditer(text))
    if not tokens:
        return text
    t = rng.choice(tokens)
    word = t.group(0)
    if kind == 5:  # a type for a type, an op for an op, a literal for a literal
        if word in TYPES or re.fullmatch(r"[fi][0-9]+", word):
            new = rng.choice(TYPES)
        elif "." in word and word[0].isalpha():
            new = rng.choice(OPS)
        elif re.fullmatch(r"-?[0-9]+(\.[0-9]+)?", word):
            new = rng.choice(LITERALS)
        else:
            new = rng.choice(TYPES + OPS + LITERALS)
    elif kind == 6:  # an SSA name or symbol for another
        names = [x.group(0) for x in tokens if x.group(0)[0] in "%@" and x.group(0)[0] == word[0]]
        new = rng.choice(names) if names else word
    elif kind == 7:  # drop a token
        new = ""
    else:  # punctuation in or out
        new = rng.choice(PUNCTUATION) + (word if rng.random() < 0.5 else "")
    return text[:t.start()] + new + text[t.end():]


def make_mutant(rng, seeds):
    path, text = rng.choice(seeds)
    for _ in range(rng.choice([1, 1, 2, 3])):
        text = mutate(rng, text)
    return path, text


def commands(tool, bins, rng, seed_path, input_path, out_dir):
    if tool == "mips-compile":
        out = os.path.join(out_dir, "out.o")
        extra = rng.choice([[], ["--emit=mlir"], ["--emit=llvm"], ["--target=riscv64"],
                            ["--static-embedding"], ["--emit-header=" + os.path.join(out_dir, "out.h")],
                            ["--target=riscv64", "--march=rv64gc"]])
        return [bins["mips-compile"], input_path, "-o", out] + extra
    return [bins["mips-opt"], input_path] + rng.choice(opt_args_of(seed_path))


def judge(returncode, stderr, timed_out):
    """None if the run kept the rules, else what is wrong."""
    if timed_out:
        return "hang"
    if returncode < 0 or returncode not in (0, 1):
        return "crash" if returncode < 0 or returncode > 128 else "exit %d" % returncode
    if returncode == 1 and not LOCATED.search(stderr):
        return "unlocated error"
    if "PLEASE submit a bug report" in stderr or "Stack dump:" in stderr:
        return "crash report"
    return None


def run_bounded(cmd, timeout):
    """(exit code, stderr, timed out); a run past the timeout is killed with its children."""
    with tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err,
                                start_new_session=True,
                                env=dict(os.environ, LLVM_DISABLE_SYMBOLIZATION="1"))
        timed_out = False
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
            os.killpg(proc.pid, 9)
            proc.wait()
        err.seek(0)
        return proc.returncode, err.read().decode("utf-8", "replace"), timed_out


def run_one(index, args, bins, seeds, work):
    rng = random.Random(args.seed * 1000003 + index)
    if args.replay:
        seed_path, text = args.replay[index], open(args.replay[index], encoding="utf-8", errors="replace").read()
    else:
        seed_path, text = make_mutant(rng, seeds)
    tool = rng.choice(args.tools)
    case_dir = os.path.join(work, str(index))
    os.makedirs(case_dir)
    input_path = os.path.join(case_dir, "mutant.mlir")
    with open(input_path, "w", encoding="utf-8") as fh:
        fh.write(text)
    cmd = commands(tool, bins, rng, seed_path, input_path, case_dir)
    returncode, stderr, timed_out = run_bounded(cmd, args.timeout)
    problem = judge(returncode, stderr, timed_out)
    result = (tool, returncode if not timed_out else -1, problem)
    if problem:
        os.makedirs(args.findings, exist_ok=True)
        stem = os.path.join(args.findings, "%s-%d" % (tool, index))
        shutil.copy(input_path, stem + ".mlir")
        with open(stem + ".txt", "w", encoding="utf-8") as fh:
            fh.write("finding: %s\nseed input: %s\ncommand: %s\nexit: %s\n\n%s" %
                     (problem, os.path.relpath(seed_path, ROOT), " ".join(cmd), returncode, stderr))
        first = stderr.strip().splitlines()[:1]
        print("finding: %s: %s on %s.mlir (from %s)%s" % (
            problem, tool, stem, os.path.relpath(seed_path, ROOT),
            (": " + first[0][:160]) if first else ""), flush=True)
    shutil.rmtree(case_dir, ignore_errors=True)
    return result


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--mips-compile", default=shutil.which("mips-compile"))
    p.add_argument("--mips-opt", default=shutil.which("mips-opt"))
    p.add_argument("--tools", default="mips-compile,mips-opt")
    p.add_argument("--mutants", type=int, default=300)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    p.add_argument("--timeout", type=float, default=20.0)
    p.add_argument("--findings", default=os.path.join(os.getcwd(), "compile-fuzz-findings"))
    p.add_argument("--replay", nargs="+")
    args = p.parse_args()
    args.tools = args.tools.split(",")
    bins = {"mips-compile": args.mips_compile, "mips-opt": args.mips_opt}
    for tool in args.tools:
        if not bins.get(tool) or not os.access(bins[tool], os.X_OK):
            p.error("no %s: pass --%s" % (tool, tool))
    seeds = seed_inputs()
    count = len(args.replay) if args.replay else args.mutants
    start = time.time()
    tally = {}
    findings = 0
    with tempfile.TemporaryDirectory() as work, \
            concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for tool, returncode, problem in pool.map(lambda i: run_one(i, args, bins, seeds, work), range(count)):
            key = (tool, problem or ("exit %d" % returncode))
            tally[key] = tally.get(key, 0) + 1
            findings += problem is not None
    summary = ", ".join("%s %s: %d" % (t, what, n) for (t, what), n in sorted(tally.items()))
    print("compile_fuzz: %d inputs from %d seed inputs in %.0f s (%s); %d findings" %
          (count, len(seeds), time.time() - start, summary, findings))
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
