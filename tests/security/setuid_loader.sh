#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A setuid or setgid program built from a mips-compile object (import-table mode) must
# not load the library MIPS_KERNEL_LIBRARY names: run as an unprivileged user with that
# variable pointing at a library whose constructor leaves a marker file, it must leave
# no marker and compute its result with the real libmips.so.1.
#
# Native only: qemu-user does not give the guest a meaningful AT_SECURE. Needs root (to
# make a setuid-root file) and a file system that honours setuid bits; otherwise it
# skips (exit 77) and says why.
#
# usage: setuid_loader.sh <cc> <driver.c> <model object> <header dir> <libmips.so.1> <marker provider>
set -u
cc=$1 driver=$2 object=$3 header_dir=$4 libmips=$5 provider=$6
nobody=65534
unprivileged=(setpriv --reuid=$nobody --regid=$nobody --clear-groups)

skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*" >&2; exit 1; }

[ "$(id -u)" -eq 0 ] || skip "making a setuid-root program needs root; this runs as uid $(id -u)"
command -v setpriv >/dev/null || skip "setpriv (util-linux) is not installed"

# A directory every user can traverse, on a file system that honours setuid: a probe,
# made setuid root and run as nobody, must see AT_SECURE set and euid 0.
probe_source='#include <stdio.h>
#include <sys/auxv.h>
#include <unistd.h>
int main(void) { printf("secure %lu euid %d\n", getauxval(AT_SECURE), (int)geteuid()); return 0; }'
dir=
for base in "${TMPDIR:-/tmp}" /tmp /var/tmp /dev/shm; do
  [ -d "$base" ] || continue
  candidate=$(mktemp -d "$base/mips-setuid.XXXXXX" 2>/dev/null) || continue
  chmod 755 "$candidate"
  if printf '%s\n' "$probe_source" | "$cc" -x c - -o "$candidate/probe" 2>/dev/null &&
     chmod 4755 "$candidate/probe" &&
     [ "$("${unprivileged[@]}" "$candidate/probe" 2>/dev/null)" = "secure 1 euid 0" ]; then
    dir=$candidate
    break
  fi
  rm -rf "$candidate"
done
[ -n "$dir" ] || skip "no directory here lets nobody run a setuid-root program (nosuid mounts, or no setpriv rights)"
trap 'rm -rf "$dir"' EXIT

# The program finds the real libmips through its RUNPATH (absolute: the loader
# ignores LD_LIBRARY_PATH and $ORIGIN outside system directories in secure mode).
cp -L "$libmips" "$dir/libmips.so.1"
cp -L "$provider" "$dir/hostile.so"
"$cc" -I "$header_dir" "$driver" "$object" -o "$dir/model" -Wl,-rpath,"$dir" -ldl ||
  fail "cannot link the test program"
chmod 755 "$dir/libmips.so.1" "$dir/hostile.so" "$dir/model"
mkdir -m 1777 "$dir/markers"

# What the real libmips prints, run plainly as root.
real_kernel=$(MIPS_KERNEL=scalar "$dir/model" | grep '^kernel: ') || fail "the test program does not run"
version=$(sed -E 's/.*\(libmips (.*)\)$/\1/' <<<"$real_kernel")

# Control: without secure mode the override is honoured, so the hostile library's
# constructor does run. This shows the marker would appear if the loader were unsafe.
marker=$dir/markers/control
MIPS_KERNEL_LIBRARY=$dir/hostile.so MIPS_TEST_MARKER=$marker "$dir/model" >/dev/null 2>&1
[ -f "$marker" ] || fail "control: the hostile library left no marker when loaded as an override outside secure mode"
echo "control: outside secure mode the override is loaded ($(cat "$marker"))"

check_secure_run() { # <label> <chmod mode>
  local label=$1 mode=$2 out err status
  chown root:root "$dir/model"
  chmod "$mode" "$dir/model"
  local marker=$dir/markers/$label
  out=$(mktemp) err=$(mktemp)
  "${unprivileged[@]}" env MIPS_KERNEL_LIBRARY="$dir/hostile.so" MIPS_TEST_MARKER="$marker" \
    MIPS_VERBOSE=1 MIPS_KERNEL=scalar MIPS_NUM_THREADS=1 "$dir/model" >"$out" 2>"$err"
  status=$?
  echo "--- $label (chmod $mode, run as uid $nobody): exit $status"
  cat "$out" "$err"
  if [ -f "$marker" ]; then
    fail "$label: the library named by MIPS_KERNEL_LIBRARY was loaded: $(cat "$marker")"
  fi
  [ "$status" -eq 0 ] || fail "$label: exit status $status, expected 0"
  grep -q '^result matches the C reference$' "$out" || fail "$label: wrong result"
  grep -qxF "$real_kernel" "$out" ||
    fail "$label: the program did not run with the real libmips $version"
  grep -qE "^mips: MIPS_KERNEL_LIBRARY=.*hostile\\.so ignored: secure-execution mode \\(setuid, setgid or file capabilities\\); loading libmips\\.so\\.1$" "$err" ||
    fail "$label: MIPS_VERBOSE=1 did not say that the override was ignored"
  # The variables that pick among libmips's own behaviour stay honoured (abi/ABI.md).
  grep -qE "^libmips ${version//./\\.}: kernel set scalar \\(MIPS_KERNEL\\).*; up to 1 threads" "$err" ||
    fail "$label: MIPS_KERNEL, MIPS_NUM_THREADS or MIPS_VERBOSE were not honoured"
  rm -f "$out" "$err"
}
check_secure_run setuid 4755
check_secure_run setgid 2755
echo "secure mode: MIPS_KERNEL_LIBRARY ignored, the real libmips $version ran"
