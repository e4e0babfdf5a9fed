#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A new minor version only adds: compares a built libmips.so with the frozen baseline of
# an earlier release of the same major, and fails on any removed or changed function or
# variable, on an incompatible change (abidiff status bit 8), or on an added symbol
# outside the version nodes named.
# usage: check_abi_additions.sh <libmips.so> <old baseline.abi> <public include dir> <new node>...
set -uo pipefail
lib=$1 baseline=$2 headers=$3
shift 3
report=$(abidiff --headers-dir2 "$headers" "$baseline" "$lib")
status=$?
echo "$report"
fail() { echo "FAIL: $*" >&2; exit 1; }
[ $((status & 11)) -eq 0 ] || fail "abidiff exit status $status (error or incompatible change) against $baseline"
for kind in Functions Variables; do
  echo "$report" | grep -q "^$kind changes summary: 0 Removed, 0 Changed" ||
    fail "$kind were removed or changed since $baseline"
done
# Every addition carries one of the new version nodes.
while read -r added; do
  ok=0
  for node in "$@"; do [[ $added == *"@@$node}"* ]] && ok=1; done
  [ $ok -eq 1 ] || fail "added outside the new version nodes ($*): $added"
done < <(echo "$report" | grep '^  \[A\]')
echo "only additions since $baseline, all in: $*"
