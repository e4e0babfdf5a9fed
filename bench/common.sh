# SPDX-License-Identifier: Apache-2.0
# Shared by the bench scripts that count compiled programs under qemu (models.sh,
# inline_threshold.sh, linkage_modes.sh): where the build is, what they need from it,
# and a scratch directory removed on exit.
# shellcheck shell=bash

# bench_setup <script name> <build dir, or empty for build/> <file under riscv64/libmips
# the script links>: sets root, build, compile (mips-compile), plugin (the
# instruction-count plugin), libmips_dir and work, or exits naming what is missing.
bench_setup() {
  local name=$1 file
  root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
  build=${2:-$root/build}
  compile=$build/host/compiler/bin/mips-compile
  plugin=$build/host/bench/libmips-insn-count.so
  libmips_dir=$build/riscv64/libmips
  for file in "$compile" "$plugin" "$libmips_dir/$3"; do
    [ -e "$file" ] || { echo "$name: missing $file (run scripts/test.sh, or build host and riscv64, first)" >&2; exit 1; }
  done
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
}
