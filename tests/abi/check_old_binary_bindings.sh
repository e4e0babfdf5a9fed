#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A program built against the 1.0 header binds only to MIPS_1.0 symbols, so any later
# 1.x libmips.so.1 satisfies it. usage: check_old_binary_bindings.sh <executable>
set -euo pipefail
exe=$1
refs=$(readelf --dyn-syms -W "$exe" | awk '$7 == "UND" && $8 ~ /^mips_/ { print $8 }')
[ -n "$refs" ] || { echo "FAIL: $exe references no libmips symbols" >&2; exit 1; }
bad=$(echo "$refs" | grep -v '@MIPS_1\.0' || true)
if [ -n "$bad" ]; then
  echo "FAIL: $exe binds to symbols outside MIPS_1.0:" >&2
  echo "$bad" >&2
  exit 1
fi
echo "$(echo "$refs" | wc -l) libmips symbols, all @MIPS_1.0"
