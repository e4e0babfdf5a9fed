#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Compares a built libmips.so with its architecture's abidw baseline. abidiff's exit
# status is a bit field (4 = changed, 8 = incompatible) and a type change such as
# int64_t -> int only sets 4, so any nonzero status fails.
# usage: check_abidiff.sh <libmips.so> <baseline.abi> <public include dir>
set -uo pipefail
lib=$1 baseline=$2 headers=$3
if [ ! -f "$baseline" ]; then
  echo "FAIL: no ABI baseline $baseline; create it deliberately with scripts/update-abi-baseline.sh" >&2
  exit 1
fi
abidiff --headers-dir2 "$headers" "$baseline" "$lib"
status=$?
if [ $status -ne 0 ]; then
  echo "FAIL: abidiff exit status $status: the ABI of $lib differs from $baseline" >&2
  exit 1
fi
echo "ABI matches $baseline"
