#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Every source file of the project under <root> names its license (Apache-2.0, see
# LICENSE) in an SPDX line near its top. usage: check_spdx.sh <root>
set -euo pipefail
root=$1
missing=()
while IFS= read -r -d '' f; do
  head -n 3 "$f" | grep -q 'SPDX-License-Identifier: Apache-2.0' || missing+=("${f#"$root"/}")
done < <(find "$root" \( -path "$root/build*" -o -path "$root/.git" \) -prune -o -type f \
           \( -name '*.c' -o -name '*.h' -o -name '*.inl' -o -name '*.cpp' -o -name '*.td' \
              -o -name '*.cmake' -o -name '*.py' -o -name '*.sh' -o -name 'CMakeLists.txt' \) \
           -print0)
if [ ${#missing[@]} -gt 0 ]; then
  printf 'no SPDX-License-Identifier line in: %s\n' "${missing[@]}" >&2
  exit 1
fi
[ -f "$root/LICENSE" ] || { echo "no LICENSE file in $root" >&2; exit 1; }
echo "SPDX lines present"
