#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# mips-bench, the whole report: builds libmips for the host and for riscv64, then runs
#  - on the host: GFLOP/s (GOP/s for int8) of libmips, the naive loop, OpenBLAS and oneDNN;
#  - under qemu-riscv64 with the project's instruction-count plugin, at VLEN 128, 256,
#    512 and 1024 and on a core without V: eff and ins/ideal of libmips and of the
#    unpacked RVV baseline;
# and writes a table (stdout), a CSV and PNG plots to $MIPS_BUILD/bench.
# usage: scripts/bench.sh [--quick]
set -euo pipefail
source "$(dirname "$0")/common.sh"
"$MIPS_ROOT/scripts/install-deps.sh" --bench

mips_configure_build host
mips_configure_build riscv64 -DCMAKE_TOOLCHAIN_FILE="$MIPS_ROOT/cmake/riscv64-linux-gnu.cmake" \
  -DMIPS_COMPILE_EXECUTABLE="$MIPS_BUILD/host/compiler/bin/mips-compile"

out=$MIPS_BUILD/bench
mkdir -p "$out"
# This workplace pins OpenBLAS to an older core (OPENBLAS_CORETYPE) for its own tests;
# the comparison is against the core OpenBLAS picks by itself, which the report names.
env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE \
  "$MIPS_BUILD/host/bench/mips-bench" "$@" \
  --riscv-bench="$MIPS_BUILD/riscv64/bench/mips-bench" \
  --plugin="$MIPS_BUILD/host/bench/libmips-insn-count.so" \
  --qemu="${MIPS_QEMU[0]}" --sysroot="${MIPS_QEMU[2]}" --out="$out"
