#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A program built against an earlier release's header binds only to that release's
# version nodes, so any later 1.x libmips.so.1 satisfies it.
# usage: check_old_binary_bindings.sh <executable> <version node>...
set -euo pipefail
exe=$1
shift
refs=$(readelf --dyn-syms -W "$exe" | awk '$7 == "UND" && $8 ~ /^mips_/ { print $8 }')
[ -n "$refs" ] || { echo "FAIL: $exe references no libmips symbols" >&2; exit 1; }
bad=$refs
for node in "$@"; do bad=$(echo "$bad" | grep -v "@$node\$" || true); done
if [ -n "$bad" ]; then
  echo "FAIL: $exe binds to symbols outside $*:" >&2
  echo "$bad" >&2
  exit 1
fi
echo "$(echo "$refs" | wc -l) libmips symbols, all in $*"
