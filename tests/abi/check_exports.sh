#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Compares the symbols a built libmips.so defines in its dynamic symbol table (with
# their version nodes) against abi/libmips.symbols. Any difference fails.
# usage: check_exports.sh <libmips.so> <abi/libmips.symbols>
set -euo pipefail
lib=$1 expected=$2
actual=$(readelf --dyn-syms -W "$lib" |
  awk '$5 ~ /^(GLOBAL|WEAK)$/ && $7 != "UND" && $7 != "ABS" { print $4, $8 }' | sort)
if ! diff -u <(grep -v '^#' "$expected" | sort) <(echo "$actual"); then
  echo "FAIL: exported symbols of $lib differ from $expected (- expected, + actual)" >&2
  exit 1
fi
echo "exports match $expected ($(echo "$actual" | wc -l) symbols)"
