#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# count_calls.sh <program> [args...]: runs an end-to-end driver whose libmips calls go
# through the trace provider (MIPS_KERNEL_LIBRARY), and checks, for each function the
# driver announces on stderr ("e2e-expect: <function> <calls>"), that exactly that many
# libmips matmul calls were logged before the next announcement. The program's own
# exit status must be 0 too.
set -uo pipefail
log=$(mktemp)
trap 'rm -f "$log"' EXIT
"$@" 2>"$log"
status=$?
cat "$log" >&2
if [ "$status" -ne 0 ]; then
  echo "count_calls: the program exited with $status" >&2
  exit 1
fi
awk '
  /^e2e-expect: / {
    if (name != "") check()
    want = $NF; name = $0; sub(/^e2e-expect: /, "", name); sub(/ [0-9]+$/, "", name)
    seen = 0; announced++
    next
  }
  /^mips-trace: mips_matmul_/ { seen++ }
  function check() {
    if (seen != want) { printf "count_calls: %s made %d libmips calls, expected %d\n", name, seen, want; bad++ }
    else printf "count_calls: %s made %d libmips calls, as expected\n", name, seen
  }
  END {
    if (name != "") check()
    if (announced == 0) { print "count_calls: the program announced no calls"; bad++ }
    exit bad > 0
  }' "$log"
