# SPDX-License-Identifier: Apache-2.0
# Shared by demo.sh and test.sh: where things are and how a build tree is configured.
# shellcheck shell=bash
MIPS_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
MIPS_BUILD=${MIPS_BUILD:-$MIPS_ROOT/build}
MIPS_QEMU=(qemu-riscv64 -L /usr/riscv64-linux-gnu)
MIPS_RVV_CPU=rv64,v=true,vext_spec=v1.0

# mips_configure <name> [cmake args...]: configures $MIPS_BUILD/<name>.
mips_configure() {
  local name=$1
  shift
  cmake -S "$MIPS_ROOT" -B "$MIPS_BUILD/$name" -G Ninja "$@" >/dev/null
}

# mips_configure_build <name> [cmake args...]: configures and builds all of $MIPS_BUILD/<name>.
mips_configure_build() {
  mips_configure "$@"
  cmake --build "$MIPS_BUILD/$1"
}
