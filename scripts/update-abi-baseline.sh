#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Rewrites abi/baseline/libmips-<arch>.abi from a built libmips.so. Run it only for a
# deliberate, released ABI change (a new minor version with its CHANGELOG entry); the
# ABI tests fail on any difference from these files.
# usage: scripts/update-abi-baseline.sh <libmips.so> <arch: x86_64|riscv64>
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
lib=$1 arch=$2
abidw --headers-dir "$root/libmips/include" --drop-private-types --no-corpus-path \
  --no-comp-dir-path --no-show-locs --out-file "$root/abi/baseline/libmips-$arch.abi" "$lib"
echo "wrote abi/baseline/libmips-$arch.abi"
