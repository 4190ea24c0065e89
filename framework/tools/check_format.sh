#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Checks that every C++ and CUDA source of the repository is formatted as .clang-format says, and
# that every source file names its licence in an SPDX line (framework/tools/add_spdx.sh --check).
#   framework/tools/check_format.sh          list the files that differ or lack it (exit 1 if any)
#   framework/tools/check_format.sh --fix    reformat them in place (add_spdx.sh adds the lines)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
if ! command -v clang-format >/dev/null; then
  echo "error: clang-format is not installed (Debian: apt-get install clang-format)" >&2
  exit 2
fi
mapfile -t files < <(git ls-files --cached --others --exclude-standard '*.cpp' '*.hpp' '*.cu' '*.cuh' |
  while read -r f; do [[ -f "$f" ]] && echo "$f"; done)
if [[ "${1:-}" == --fix ]]; then
  clang-format -i "${files[@]}"
  echo "formatted ${#files[@]} files"
  exit 0
fi
bad=()
for f in "${files[@]}"; do
  clang-format --dry-run --Werror "$f" >/dev/null 2>&1 || bad+=("$f")
done
status=0
if ((${#bad[@]})); then
  printf 'not formatted (run framework/tools/check_format.sh --fix):\n' >&2
  printf '  %s\n' "${bad[@]}" >&2
  status=1
else
  echo "clang-format: all ${#files[@]} C++ files conform ($(clang-format --version | head -1))"
fi
"$root/framework/tools/add_spdx.sh" --check || status=1
exit "$status"
