#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs a command that must fail in a given way: exits 0 only if the command's exit
# status is <status> and its output (stdout + stderr) matches <regex> (on exactly
# $EXPECT_LINES lines, when that is set).
# usage: [EXPECT_LINES=n] expect_exit.sh <status> <regex> <command...>
set -u
want_status=$1 regex=$2
shift 2
output=$("$@" 2>&1)
status=$?
printf '%s\n' "$output"
if [ "$status" -ne "$want_status" ]; then
  echo "FAIL: exit status $status, expected $want_status" >&2
  exit 1
fi
if ! grep -qE -- "$regex" <<<"$output"; then
  echo "FAIL: output does not match: $regex" >&2
  exit 1
fi
if [ -n "${EXPECT_LINES:-}" ]; then
  lines=$(grep -cE -- "$regex" <<<"$output")
  if [ "$lines" -ne "$EXPECT_LINES" ]; then
    echo "FAIL: $lines lines match, expected $EXPECT_LINES: $regex" >&2
    exit 1
  fi
fi
echo "exit status $status and message as expected"
