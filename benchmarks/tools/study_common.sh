# SPDX-License-Identifier: GPL-3.0-or-later
# Shared by the study scripts of benchmarks/ (source it; `repo` must hold the repository root).

# study_substruct SCRIPT [PATH]: the substruct command to use — PATH when given, else $SUBSTRUCT,
# else the build tree's (build/bin/substruct), else the one on PATH; exits with a message naming
# SCRIPT when none runs.
study_substruct() {
  local script="$1" chosen="${2:-${SUBSTRUCT:-}}"
  if [[ -z "$chosen" ]]; then
    if [[ -x "$repo/build/bin/substruct" ]]; then
      chosen="$repo/build/bin/substruct"
    elif command -v substruct >/dev/null; then
      chosen="$(command -v substruct)"
    fi
  fi
  if [[ ! -x "$chosen" ]]; then
    echo "$script: no substruct command${chosen:+ at '$chosen'} (build it, or give --substruct PATH)" >&2
    exit 2
  fi
  echo "$chosen"
}

# study_out DIR: makes DIR and prints its absolute path.
study_out() {
  mkdir -p "$1"
  (cd "$1" && pwd)
}
