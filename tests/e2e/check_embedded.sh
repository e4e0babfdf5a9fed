#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A program built from an --embed-libmips object needs no libmips: no libmips in its
# NEEDED entries, and neither it nor the object has an undefined mips_* or dl* symbol.
# usage: check_embedded.sh <program> <object>
set -euo pipefail
program=$1 object=$2
nm=$(command -v llvm-nm-22 || command -v llvm-nm || echo /usr/lib/llvm-22/bin/llvm-nm)
fail() { echo "FAIL: $*" >&2; exit 1; }
needed=$(readelf -d "$program" | grep NEEDED || true)
echo "$needed"
if grep -q libmips <<<"$needed"; then fail "$program needs a libmips"; fi
for file in "$object" "$program"; do
  undefined=$("$nm" -u "$file")
  if grep -E ' (mips_|dlopen|dlsym)' <<<"$undefined"; then fail "$file has the undefined symbols above"; fi
done
exported=$("$nm" --defined-only -g "$object")
if grep -E ' mips_' <<<"$exported"; then fail "$object exports libmips symbols (not internalized)"; fi
echo "embedded: no libmips needed by $program"
