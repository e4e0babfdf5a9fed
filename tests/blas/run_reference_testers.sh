#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The reference BLAS level-3 testers (Debian's libblas-test) with libmips-blas preloaded:
# xblat3s for sgemm_ and xscblat3 for cblas_sgemm, computational and error-exit tests.
# Every other routine they test comes from the reference BLAS installed beside them: with
# OpenBLAS chosen as the system libblas.so.3 (update-alternatives), xscblat3 cannot load
# (it needs the reference library's RowMajorStrg).
# usage: run_reference_testers.sh <libmips-blas.so.1> <dir holding xblat3s and sblat3.in>
set -euo pipefail
lib=$(realpath "$1") testers=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }

# <tester> <input> <summary file> <lines that must appear...>
run_tester() {
  local tester=$1 input=$2 summary=$3 line
  shift 3
  echo "== $tester < $input (LD_PRELOAD=$lib)"
  local status=0
  MIPS_VERBOSE=1 LD_PRELOAD=$lib LD_LIBRARY_PATH=$(realpath "$testers") "$testers/$tester" < "$testers/$input" > stdout.txt 2> stderr.txt ||
    status=$?
  if [ "$status" -ne 0 ]; then cat stdout.txt stderr.txt; fail "$tester exited with status $status"; fi
  [ -f "$summary" ] || summary=stdout.txt
  grep -E "^ *(cblas_)?sgemm" -i "$summary" || true
  for line in "$@"; do
    grep -qF "$line" "$summary" || { cat "$summary"; fail "$tester: no '$line'"; }
  done
  if grep -iE "sgemm" "$summary" | grep -qiE "FAIL|WRONG|XERBLA WAS CALLED"; then
    cat "$summary"; fail "$tester reports a failure for sgemm"
  fi
  # The products must have run in libmips, not in the system BLAS.
  grep -E "libmips-blas: [1-9][0-9]* sgemm calls ran in libmips" stderr.txt ||
    { cat stderr.txt; fail "$tester: no sgemm call reached libmips"; }
}

run_tester xblat3s sblat3.in sblat3.out \
  "SGEMM  PASSED THE TESTS OF ERROR-EXITS" "SGEMM  PASSED THE COMPUTATIONAL TESTS"
run_tester xscblat3 sin3 stdout.txt \
  "cblas_sgemm  PASSED THE TESTS OF ERROR-EXITS" \
  "cblas_sgemm  PASSED THE COLUMN-MAJOR COMPUTATIONAL TESTS" \
  "cblas_sgemm  PASSED THE ROW-MAJOR    COMPUTATIONAL TESTS"
echo "reference BLAS testers: sgemm_ and cblas_sgemm pass with libmips-blas"
