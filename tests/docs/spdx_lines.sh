#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# framework/tools/add_spdx.sh on a scratch repository: --check lists exactly the source files
# without an SPDX line and fails; adding puts the line first (after a #! line), in the file's
# comment style, leaves other files, modes and tagged files alone, and a second run changes
# nothing; --check then passes.   spdx_lines.sh SOURCE_DIR
set -euo pipefail
src="$(cd "$1" && pwd)"
tool="$src/framework/tools/add_spdx.sh"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
cd "$out"
git init -q .
mkdir -p framework/tools sub tests/fuzz/corpus/x
cp "$tool" framework/tools/add_spdx.sh
printf '#pragma once\nint f();\n' >sub/a.hpp
printf 'int f() { return 1; }\n' >sub/a.cpp
printf '__global__ void k() {}\n' >sub/k.cu
printf '#!/usr/bin/env bash\necho hi\n' >sub/run.sh
chmod +x sub/run.sh
printf '#!/usr/bin/env python3\n"""Doc."""\nprint(__doc__)\n' >sub/tool.py
printf '"""Doc only."""\n' >sub/lib.py
printf 'add_library(a a.cpp)\n' >sub/CMakeLists.txt
printf 'set(X 1)\n' >sub/Find.cmake
printf '#!/bin/sh\necho ci\n' >sub/ci
printf '// SPDX-License-Identifier: MIT\nint g();\n' >sub/tagged.hpp
printf 'a note\n' >sub/notes.txt
printf '[scene]\n' >sub/scene.ini
printf 'binary-ish\n' >tests/fuzz/corpus/x/case
: >sub/empty.py
git add -A

expected_lacking="sub/CMakeLists.txt
sub/Find.cmake
sub/a.cpp
sub/a.hpp
sub/ci
sub/empty.py
sub/k.cu
sub/lib.py
sub/run.sh
sub/tool.py"
if framework/tools/add_spdx.sh --check 2>"$out/check.err"; then
  echo "FAILED: --check passed on files without the line"
  exit 1
fi
listed="$(sed -n 's/^  //p' "$out/check.err" | sort)"
[[ "$listed" == "$expected_lacking" ]] || {
  echo "FAILED: --check listed"
  echo "$listed"
  exit 1
}
git diff --quiet || { echo "FAILED: --check changed files"; exit 1; }

framework/tools/add_spdx.sh >"$out/add.log"
grep -qx "SPDX line (GPL-3.0-or-later) added to 10 files" "$out/add.log" || {
  cat "$out/add.log"
  exit 1
}
expect() {  # FILE LINE_NUMBER TEXT
  [[ "$(sed -n "$2p" "$1")" == "$3" ]] || {
    echo "FAILED: $1 line $2 is '$(sed -n "$2p" "$1")', expected '$3'"
    exit 1
  }
}
cxx="// SPDX-License-Identifier: GPL-3.0-or-later"
hash="# SPDX-License-Identifier: GPL-3.0-or-later"
expect sub/a.hpp 1 "$cxx" && expect sub/a.hpp 2 "#pragma once"
expect sub/a.cpp 1 "$cxx" && expect sub/k.cu 1 "$cxx"
expect sub/run.sh 1 "#!/usr/bin/env bash" && expect sub/run.sh 2 "$hash" && expect sub/run.sh 3 "echo hi"
expect sub/tool.py 1 "#!/usr/bin/env python3" && expect sub/tool.py 2 "$hash"
expect sub/lib.py 1 "$hash" && expect sub/lib.py 2 '"""Doc only."""'
expect sub/CMakeLists.txt 1 "$hash" && expect sub/Find.cmake 1 "$hash"
expect sub/ci 1 "#!/bin/sh" && expect sub/ci 2 "$hash"
expect sub/empty.py 1 "$hash"
expect sub/tagged.hpp 1 "// SPDX-License-Identifier: MIT"
[[ "$(cat sub/notes.txt)" == "a note" && "$(cat sub/scene.ini)" == "[scene]" ]] || {
  echo "FAILED: a file that is not source was changed"
  exit 1
}
[[ "$(cat tests/fuzz/corpus/x/case)" == "binary-ish" ]] || { echo "FAILED: corpus changed"; exit 1; }
[[ -x sub/run.sh ]] || { echo "FAILED: run.sh lost its mode"; exit 1; }
[[ "$(python3 sub/tool.py)" == "Doc." ]] || { echo "FAILED: tool.py's docstring"; exit 1; }
[[ "$(bash sub/run.sh)" == "hi" ]] || { echo "FAILED: run.sh"; exit 1; }

before="$(git ls-files -s; cat sub/*)"
framework/tools/add_spdx.sh >"$out/again.log"
grep -qx "SPDX line (GPL-3.0-or-later) added to 0 files" "$out/again.log"
[[ "$(git ls-files -s; cat sub/*)" == "$before" ]] || { echo "FAILED: not idempotent"; exit 1; }
framework/tools/add_spdx.sh --check >/dev/null
echo "spdx_lines: ok"
