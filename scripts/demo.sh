#!/usr/bin/env bash
# The end-to-end demo: builds libmips for the host and for riscv64, then runs the
# example natively and under qemu at VLEN 128 and 512 (and on a core without V).
set -euo pipefail
source "$(dirname "$0")/common.sh"
"$MIPS_ROOT/scripts/install-deps.sh"

mips_configure_build host
mips_configure_build riscv64 -DCMAKE_TOOLCHAIN_FILE="$MIPS_ROOT/cmake/riscv64-linux-gnu.cmake"

example=examples/matmul_example
echo
echo "=== x86_64 host ==="
"$MIPS_BUILD/host/$example"
for cpu in "$MIPS_RVV_CPU,vlen=128" "$MIPS_RVV_CPU,vlen=512" "rv64,v=false"; do
  echo
  echo "=== riscv64 under qemu -cpu $cpu ==="
  "${MIPS_QEMU[@]}" -cpu "$cpu" "$MIPS_BUILD/riscv64/$example"
done
