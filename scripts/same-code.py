#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Whether two builds of a library or object hold the same code, function by function.

Disassembles both (llvm-objdump-22), drops addresses and PC-relative immediates (which
move with the layout), optionally drops a name prefix (--strip-prefix mips_, for
functions that were made external and renamed), and compares each function's
instructions. Exits 0 when every function present in both is the same, 1 otherwise.
A restructure that only moves code should pass it; run it before claiming so.

usage: scripts/same-code.py <before> <after> [--strip-prefix P]
"""
import argparse
import re
import subprocess
import sys


def functions(path, strip):
    out = subprocess.run(["llvm-objdump-22", "-d", "--no-show-raw-insn", "--symbolize-operands", path],
                         capture_output=True, text=True, check=True).stdout
    found, current, pc_register = {}, None, None

    def name_of(name):
        return name[len(strip):] if strip and name.startswith(strip) else name

    for line in out.split("\n"):
        header = re.match(r"^[0-9a-f]+ <(.*)>:$", line)
        if header:
            current = name_of(header.group(1))
            copy = 2
            while current in found:  # static functions of one name in several files
                current = f"{name_of(header.group(1))}#{copy}"
                copy += 1
            found[current] = []
            continue
        if current is None or not line.strip() or ":" not in line:
            continue
        insn = re.sub(r"^\s*[0-9a-f]+:\s*", "", line)
        insn = re.sub(r"<" + re.escape(strip) + r"", "<", insn) if strip else insn
        insn = re.sub(r"-?\b0x[0-9a-f]+\b", "ADDR", insn)
        insn = re.sub(r"\b[0-9a-f]{4,} <", "<", insn)
        auipc = re.match(r"auipc\s+(\w+),", insn)
        if auipc:  # riscv64: the pair's immediates depend on the layout
            pc_register = auipc.group(1)
            insn = "auipc " + pc_register + ", PCREL"
        elif pc_register and re.search(r"\b" + pc_register + r"\b", insn.split(",", 1)[-1]):
            insn = re.sub(r"-?\b\d+\b|ADDR", "PCLO", insn)
            pc_register = None
        same_register = re.match(r"mv\s+(\w+), (\w+)$", insn)  # addi x, x, 0 after relocation
        if same_register and same_register.group(1) == same_register.group(2):
            insn = "addi " + same_register.group(1) + ", " + same_register.group(1) + ", PCLO"
        found[current].append(insn.replace("\t", " "))
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("before")
    parser.add_argument("after")
    parser.add_argument("--strip-prefix", default="")
    args = parser.parse_args()
    before = functions(args.before, args.strip_prefix)
    after = functions(args.after, args.strip_prefix)
    common = sorted(set(before) & set(after))
    differ = [name for name in common if before[name] != after[name]]
    for name in sorted(set(before) - set(after)):
        print(f"only in {args.before}: {name}")
    for name in sorted(set(after) - set(before)):
        print(f"only in {args.after}: {name}")
    for name in differ:
        print(f"differs: {name} ({len(before[name])} -> {len(after[name])} instructions)")
    print(f"{len(common) - len(differ)} of {len(common)} functions the same")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
