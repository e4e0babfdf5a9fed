#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# ScaLAPACK's psgemm on 4 MPI ranks (loopback, oversubscribed) with libmips-blas linked
# ahead of the system BLAS; see psgemm_check.c.
# usage: run_scalapack.sh <dir of libmips-blas.so> <dir of libmips.so> <source dir>
set -euo pipefail
blas_dir=$(realpath "$1") mips_dir=$(realpath "$2") src=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
command -v mpicc >/dev/null || { echo "FAIL: mpicc not found (apt-get install libopenmpi-dev)" >&2; exit 1; }
mpicc -O1 -o "$work/psgemm_check" "$src/tests/blas/psgemm_check.c" \
  -L"$blas_dir" -Wl,-rpath,"$blas_dir:$mips_dir" -Wl,--no-as-needed -lmips-blas \
  -lscalapack-openmpi -lm
# libmips-blas must come before the system BLAS, or sgemm_ would bind there.
readelf -d "$work/psgemm_check" | grep NEEDED
as_root=()
[ "$(id -u)" -eq 0 ] && as_root=(--allow-run-as-root)
# One libmips thread per rank: the four ranks already share the machine.
MIPS_NUM_THREADS=1 OMPI_MCA_btl_vader_single_copy_mechanism=none timeout 300 \
  mpirun "${as_root[@]}" --oversubscribe -np 4 --mca btl self,vader \
  "$work/psgemm_check"
