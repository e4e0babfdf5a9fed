#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs a shell block of the README as written: the ```sh block that follows the line
# `<!-- readme-test: <name> -->`, in a scratch directory that looks like the top of the
# source tree. /opt/mips becomes a scratch prefix. With --prebuilt HOST RV, `build` and
# `build-rv` are these existing build trees and the block's cmake lines (the same
# configure and build the test suite has just done) are skipped.
# usage: run_readme_block.sh <source-dir> <name> [--prebuilt <host-build> <riscv64-build>]
set -euo pipefail
src=$1 name=$2
shift 2
block=$(awk -v marker="<!-- readme-test: $name -->" '
  $0 == marker { armed = 1; next }
  armed && /^```sh$/ { inside = 1; next }
  inside && /^```$/ { exit }
  inside { print }' "$src/README.md")
[ -n "$block" ] || { echo "README.md has no block marked readme-test: $name" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for entry in "$src"/* "$src"/.ci; do
  case $(basename "$entry") in build | build-*) continue ;; esac
  ln -s "$entry" "$work/$(basename "$entry")"
done
block=${block//\/opt\/mips/$work/opt/mips}
if [ "${1:-}" = "--prebuilt" ]; then
  ln -s "$2" "$work/build"
  ln -s "$3" "$work/build-rv"
  block=$(grep -v '^cmake ' <<<"$block")
fi
echo "--- README block '$name', run in $work:"
echo "$block"
echo "---"
cd "$work"
bash -euo pipefail -c "$block"
echo "README block '$name' ran as written"
