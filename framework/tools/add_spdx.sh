#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Puts the licence's SPDX line at the top of every source file that lacks it (LICENSE,
# THIRD_PARTY.md):
#   // SPDX-License-Identifier: GPL-3.0-or-later     C++ and CUDA (.cpp .hpp .h .c .cu .cuh)
#   # SPDX-License-Identifier: GPL-3.0-or-later      shell, Python, CMake (.sh .py .cmake
#                                                    .cmake.in CMakeLists.txt, and scripts
#                                                    whose first line is a #! of sh, bash or
#                                                    python), after the #! line when there is one
#
#   framework/tools/add_spdx.sh              add the line to every source file of the repository
#   framework/tools/add_spdx.sh FILE…        only to these files
#   framework/tools/add_spdx.sh --check [FILE…]
#                                            list the files that lack it (exit 1 if any), change
#                                            nothing (framework/tools/check_format.sh runs this)
#
# The source files are those git knows (tracked, or untracked and not ignored), outside
# tests/fuzz/corpus; a file has the line when one of its first 5 lines holds
# "SPDX-License-Identifier:". Adding is idempotent: a second run changes nothing.
set -euo pipefail
readonly licence="GPL-3.0-or-later"

check=false
if [[ "${1:-}" == --check ]]; then
  check=true
  shift
fi

# The comment style of a source file: "//", "#", or nothing (not a source file).
comment_style() {
  local f="$1" name="${1##*/}"
  case "$name" in
    *.cpp | *.hpp | *.h | *.c | *.cu | *.cuh) echo "//" ;;
    *.sh | *.py | *.cmake | *.cmake.in | CMakeLists.txt) echo "#" ;;
    *.*) ;;
    *) head -n 1 -- "$f" 2>/dev/null | grep -Eq '^#!.*\b(sh|bash|python3?)\b' && echo "#" ;;
  esac
  return 0
}

has_spdx() { head -n 5 -- "$1" | grep -q 'SPDX-License-Identifier:'; }

if (($# > 0)); then
  files=("$@")
else
  root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
  cd "$root"
  mapfile -t files < <(git ls-files --cached --others --exclude-standard |
    grep -v '^tests/fuzz/corpus/' | while read -r f; do [[ -f "$f" ]] && echo "$f"; done)
fi

lacking=()
for f in "${files[@]}"; do
  style="$(comment_style "$f")"
  [[ -n "$style" ]] || continue
  has_spdx "$f" && continue
  lacking+=("$f")
  $check && continue
  line="$style SPDX-License-Identifier: $licence"
  if [[ ! -s "$f" ]]; then
    printf '%s\n' "$line" >"$f"
  elif head -n 1 -- "$f" | grep -q '^#!'; then
    sed -i "1a $line" -- "$f"
  else
    sed -i "1i $line" -- "$f"
  fi
done

if $check; then
  if ((${#lacking[@]})); then
    printf 'no SPDX licence line (run framework/tools/add_spdx.sh):\n' >&2
    printf '  %s\n' "${lacking[@]}" >&2
    exit 1
  fi
  echo "SPDX: every source file names its licence"
else
  echo "SPDX line ($licence) added to ${#lacking[@]} files"
fi
