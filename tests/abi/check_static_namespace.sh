#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# libmips.a cannot hide its internal symbols, so every global it defines must at least
# carry the mips_ prefix and never clash with a user's names.
# usage: check_static_namespace.sh <libmips.a>
set -euo pipefail
lib=$1
outside=$(readelf -s -W "$lib" |
  awk '$5 ~ /^(GLOBAL|WEAK)$/ && $7 != "UND" { print $8 }' | grep -v '^mips_' || true)
if [ -n "$outside" ]; then
  echo "FAIL: $lib defines globals outside the mips_ namespace:" >&2
  echo "$outside" >&2
  exit 1
fi
echo "all globals of $lib start with mips_ ($(readelf -s -W "$lib" | awk '$5 == "GLOBAL" && $7 != "UND"' | wc -l) symbols)"
