#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs a libFuzzer target for a bounded time from the project's seed corpus, without
# writing to it. A finding is kept in <findings dir> and fails the run.
# usage: run_libfuzzer.sh <fuzzer> <seed corpus dir> <seconds> <findings dir> [libFuzzer flags...]
set -euo pipefail
fuzzer=$1 seeds=$2 seconds=$3 findings=$4
shift 4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$findings"
status=0
"$fuzzer" -max_total_time="$seconds" -max_len=256 -timeout=20 -rss_limit_mb=2048 \
  -print_final_stats=1 -artifact_prefix="$findings/" "$@" "$work" "$seeds" 2>"$work.log" || status=$?
grep -E '^(stat::number_of_executed_units|stat::new_units_added|INFO: seed corpus)|ERROR|SUMMARY|Test unit written' "$work.log" || true
if [ "$status" -ne 0 ]; then
  tail -n 60 "$work.log" >&2
  echo "libFuzzer found a problem (exit $status); the input is in $findings" >&2
fi
rm -f "$work.log"
exit "$status"
