#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# End to end, the installed tree: `cmake --install BUILD --prefix TMP`, then everything from the
# prefix alone — no path of the source or build tree inside the installed files, the programs
# and plugins linked to the prefix's libraries, `substruct plugins`, `run`, `bench` (with its
# default scene list and plot script from <prefix>/share/substruct), `view` headless, `import
# substruct` in Python, and the example plugin built against the installed package, loaded
# into the installed command and put through `substruct check-plugin`, and the example solver
# plugin built the same way and chosen by [solvers] linear.
#   install_and_use.sh BUILD SOURCE      (CMAKE: the cmake to use, default cmake)
set -euo pipefail
cmake="${CMAKE:-cmake}"
build="$(cd "$1" && pwd)" source="$(cd "$2" && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
prefix="$tmp/prefix"
fail() {
  echo "error: $*" >&2
  exit 1
}
# Runs a command quietly, its output in $tmp/NAME.log, shown when it fails.
quiet() {
  local name="$1"
  shift
  "$@" >"$tmp/$name.log" 2>&1 || { cat "$tmp/$name.log"; fail "$name failed: $*"; }
}
unset SUBSTRUCT_PLUGIN_PATH LD_LIBRARY_PATH

echo "installing $build into $prefix"
quiet install "$cmake" --install "$build" --prefix "$prefix"
libdir="$(sed -n 's/^CMAKE_INSTALL_LIBDIR:PATH=//p' "$build/CMakeCache.txt")"
substruct="$prefix/bin/substruct"
plugins="$prefix/${libdir:-lib}/substruct/plugins"
package="$prefix/${libdir:-lib}/cmake/substruct"
data="$prefix/share/substruct"
for f in "$substruct" "$package/substructConfig.cmake" "$package/SubstructPlugin.cmake" \
  "$prefix/include/substruct/plugin/plugin_descriptor.hpp" \
  "$data/scenes/beam.ini" "$data/meshes/beam3_tet.veg" "$data/benchmarks/scenes.txt" "$data/plot_bench.py"; do
  [[ -e "$f" ]] || fail "not installed: $f"
done
installed_plugins=()
for f in "$plugins"/libsubstruct-*.so; do
  [[ -e "$f" ]] && installed_plugins+=("$(basename "$f" .so | sed 's/^libsubstruct-//')")
done
((${#installed_plugins[@]} >= 5)) || fail "only ${#installed_plugins[@]} plugins in $plugins"
echo "installed: $(cd "$prefix/bin" && echo *), ${#installed_plugins[@]} plugins"

# The documentation in <prefix>/share/doc/substruct, its links intact there, and `substruct help`
# naming it.
docs="$prefix/share/doc/substruct"
for f in README.md LICENSE THIRD_PARTY.md framework/docs/options.md framework/docs/using.md \
  coupling/inertia/README.md coupling/ddm/README.md benchmarks/RESULTS.md; do
  [[ -f "$docs/$f" ]] || fail "not installed: $docs/$f"
done
quiet docs_links python3 "$source/tests/docs/check_docs.py" "$docs"
docs_real="$(cd "$docs" && pwd -P)"
"$substruct" help >"$tmp/help.log"
grep -qF "Documentation in $docs_real:" "$tmp/help.log" || fail "substruct help does not name $docs_real"
"$substruct" help inertia >"$tmp/help_inertia.log"
grep -qxF "Its page: $docs_real/coupling/inertia/README.md" "$tmp/help_inertia.log" ||
  fail "substruct help inertia does not name its page"
echo "documentation: $docs ($(find "$docs" -name '*.md' | wc -l) pages, links intact)"
# The SDK reference, when the build made it (--target docs).
if [[ -f "$build/docs/sdk/html/index.html" ]]; then
  [[ -f "$docs/sdk/index.html" ]] || fail "the SDK reference was made but not installed in $docs/sdk"
  echo "documentation: the SDK reference in $docs/sdk"
fi

# Nothing installed names the trees it was built from: RPATHs, compiled-in paths, CMake files.
# Debug information may (it is left out of the comparison); so may the assertion and sanitizer
# messages of a Debug or sanitized build, where only the RPATHs are compared.
cache() { sed -n "s/^$1:[A-Z]*=//p" "$build/CMakeCache.txt"; }
strict=yes
case "$(cache CMAKE_BUILD_TYPE)" in Release | MinSizeRel | RelWithDebInfo) ;; *) strict=no ;; esac
[[ -z "$(cache SUBSTRUCT_SANITIZE)" ]] || strict=no
leaking=()
while IFS= read -r -d '' f; do
  if [[ "$(head -c 4 "$f" | tr -d '\0')" != $'\x7fELF' ]]; then
    text="$f"
  elif [[ $strict == yes ]]; then
    text="$tmp/text" && objcopy --strip-debug "$f" "$text"
  else
    text="$tmp/text" && readelf -d "$f" >"$text"
  fi
  if grep -qF -e "$source" -e "$build" "$text"; then leaking+=("${f#"$prefix"/}"); fi
done < <(find "$prefix" -type f -print0)
((${#leaking[@]} == 0)) || fail "installed files that name $source or $build: ${leaking[*]}"
echo "no path of the source or build tree inside the installed files ($([[ $strict == yes ]] &&
  echo "debug information aside" || echo "RPATHs only: a Debug or sanitized build"))"
# The programs and plugins load the prefix's libraries (RPATH relative to themselves).
for binary in "$substruct" "$plugins/libsubstruct-full.so"; do
  ldd "$binary" >"$tmp/ldd"
  mapfile -t ours < <(awk '$1 ~ /^libsubstruct/ { print $3 }' "$tmp/ldd")
  outside=0
  for lib in "${ours[@]}"; do
    [[ "$(realpath "$lib")" == "$(realpath "$prefix")"/lib* ]] || outside=1
  done
  if ((${#ours[@]} == 0 || outside)) || grep -q "not found" "$tmp/ldd"; then
    cat "$tmp/ldd"
    fail "$binary does not load the framework's libraries from $prefix"
  fi
done

mkdir -p "$tmp/work"
cd "$tmp/work"
# Every installed plugin loads, from the installed folder only.
quiet plugins "$substruct" plugins
sed -n '/^plugin folders:/,/^$/p' "$tmp/plugins.log" | grep '^  ' >"$tmp/folders"
[[ "$(cat "$tmp/folders")" == "  $(realpath "$plugins")" ]] ||
  { cat "$tmp/plugins.log"; fail "the installed command searches other plugin folders than $plugins"; }
! grep -q "^not loaded:" "$tmp/plugins.log" || { cat "$tmp/plugins.log"; fail "a plugin did not load"; }
for p in "${installed_plugins[@]}"; do
  grep -q "^  $p " "$tmp/plugins.log" || { cat "$tmp/plugins.log"; fail "plugin $p is not listed"; }
done
echo "plugins: ${installed_plugins[*]}"

quiet run "$substruct" run "$data/scenes/beam.ini" --run.steps=3 --run.output="$tmp/out/beam.pvd" \
  --run.cache_dir="$tmp/cache"
[[ -s "$tmp/out/beam.pvd" ]] || { cat "$tmp/run.log"; fail "run wrote no $tmp/out/beam.pvd"; }
echo "run: $(grep -c . "$tmp/run.log") lines of log, $tmp/out/beam.pvd written"
# Without --run.cache_dir an installed scene's models go to the user's cache folder, not into the
# (writable) prefix. A reduced method makes models (full has none to cache); it needs the slepc
# eigen-solver plugin, which a build without SLEPc lacks.
if [[ -e "$plugins/libsubstruct-slepc.so" ]]; then
  quiet run-default-cache env XDG_CACHE_HOME="$tmp/xdg" "$substruct" run "$data/scenes/beam.ini" \
    --coupling.plugin=inertia --run.steps=2 --run.output="$tmp/out/beam2.pvd"
  [[ ! -e "$data/scenes/.substruct-cache" ]] || fail "run wrote its models into $data/scenes"
  [[ -n "$(find "$tmp/xdg/substruct/models" -name '*.ssrm' 2>/dev/null)" ]] ||
    fail "run did not cache its models in \$XDG_CACHE_HOME"
  echo "run: an installed scene's models cached in \$XDG_CACHE_HOME/substruct/models"
else
  echo "run: the default cache folder not checked (no slepc plugin: no reduced model to cache)"
fi

# A reduced method needs the slepc eigen-solver plugin, which a build without SLEPc lacks.
if [[ -e "$plugins/libsubstruct-slepc.so" ]]; then
  methods=full,inertia
else
  methods=full
  echo "bench: the slepc plugin is not installed (built without SLEPc): full only"
fi
quiet bench "$substruct" bench "$data/scenes/beam.ini" --methods "$methods" --steps 5 --repeats 1 \
  --out "$tmp/bench" --run.cache_dir="$tmp/cache"
for m in ${methods//,/ }; do
  grep -q "^| beam | $m | [0-9]" "$tmp/bench/report.md" || { cat "$tmp/bench.log"; fail "bench: no beam × $m row"; }
done
if /usr/bin/python3 -c "import matplotlib" 2>/dev/null; then
  [[ -s "$tmp/bench/trajectories_beam.png" ]] || { cat "$tmp/bench.log"; fail "bench drew no plot"; }
else
  grep -q "plots      skipped: Python's matplotlib is missing" "$tmp/bench.log" ||
    { cat "$tmp/bench.log"; fail "bench did not say why it drew no plot"; }
fi
# Without scene arguments: the installed list, share/substruct/benchmarks/scenes.txt.
quiet bench-default "$substruct" bench --methods full --steps 2 --repeats 1 --no-plots \
  --out "$tmp/bench-default" --run.cache_dir="$tmp/cache"
[[ "$(grep -c '^| [a-z]* | full | [0-9]' "$tmp/bench-default/report.md")" -ge 3 ]] ||
  { cat "$tmp/bench-default.log"; fail "bench without scenes did not run the installed scene list"; }
echo "bench: $methods on the beam, full on the default scene list"

if [[ ! -x "$prefix/bin/substruct-view" ]]; then
  echo "view: skipped, substruct-view is not installed (built without OpenSceneGraph)"
elif ! command -v xvfb-run >/dev/null; then
  echo "view: skipped, xvfb-run is not installed (Debian: xvfb xauth)"
else
  quiet view xvfb-run -a "$substruct" view "$data/scenes/beam.ini" --run.exporters= --frames 2 \
    --size 160x120 --screenshot "$tmp/view.png" --run.cache_dir="$tmp/cache"
  [[ -s "$tmp/view.png" ]] || { cat "$tmp/view.log"; fail "view wrote no screenshot"; }
  echo "view: $tmp/view.png rendered headless"
fi

# The Python package, imported from the prefix alone; its plugins are the prefix's.
pydir="$prefix/lib/python3/dist-packages"
if [[ ! -e "$pydir/substruct/__init__.py" ]]; then
  echo "python: skipped, the package is not installed (built without pybind11-dev)"
elif ! /usr/bin/python3 -c "import numpy" 2>/dev/null; then
  echo "python: skipped, Debian's python3-numpy is not installed"
else
  quiet python env PYTHONPATH="$pydir" /usr/bin/python3 -c "
import substruct, sys
found = {p['name']: p['file'] for p in substruct.plugins()}
assert found and all(f.startswith('$prefix') for f in found.values()), found
sim = substruct.Simulation(substruct.Scene('$data/scenes/beam.ini',
                                           overrides={'run.cache_dir': '$tmp/cache'}))
sim.step(3)
print(len(found), 'plugins;', sim.positions.shape, 'positions after', sim.step_index, 'steps')
print(substruct.__file__)"
  grep -qF "$pydir/substruct/__init__.py" "$tmp/python.log" ||
    { cat "$tmp/python.log"; fail "python imported substruct from elsewhere than $pydir"; }
  echo "python: $(head -1 "$tmp/python.log") (import substruct from $pydir)"
fi

# The example plugin, built against the installed package only.
launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  export CCACHE_BASEDIR="$tmp"  # the same relative paths every run: cache hits
fi
generator=()
if command -v ninja >/dev/null; then generator=(-G Ninja); fi
quiet example-configure "$cmake" -S "$source/examples/spring-coupling" -B "$tmp/spring" "${generator[@]}" \
  "${launcher[@]}" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_FIND_PACKAGE_NO_PACKAGE_REGISTRY=ON
found="$(sed -n 's/^substruct_DIR:PATH=//p' "$tmp/spring/CMakeCache.txt")"
[[ "$(realpath "$found")" == "$(realpath "$prefix")"/lib* ]] ||
  fail "the example found substruct in $found, not in $prefix"
quiet example-build "$cmake" --build "$tmp/spring" -j 2
[[ -f "$tmp/spring/libsubstruct-spring-coupling.so" ]] || fail "the example plugin was not built"
quiet example-plugins "$substruct" plugins --plugin-path "$tmp/spring"
grep -q "^  spring-coupling " "$tmp/example-plugins.log" ||
  { cat "$tmp/example-plugins.log"; fail "the installed command does not list spring-coupling"; }
# The coupling contract, from the installed command, and as the example's own CTest
# (substruct_add_plugin_check of the installed package).
if [[ -e "$plugins/libsubstruct-spectra.so" ]]; then
  quiet example-check "$substruct" check-plugin spring-coupling --plugin-path "$tmp/spring"
  grep -qx "spring-coupling: 6 of 6 rules passed" "$tmp/example-check.log" ||
    { cat "$tmp/example-check.log"; fail "spring-coupling does not pass check-plugin"; }
  ctest="ctest"
  [[ "$cmake" == */* ]] && ctest="$(dirname "$cmake")/ctest"
  quiet example-ctest "$ctest" --test-dir "$tmp/spring" --output-on-failure
  grep -q "100% tests passed, 0 tests failed out of 1" "$tmp/example-ctest.log" ||
    { cat "$tmp/example-ctest.log"; fail "the example's check-plugin test did not pass"; }
  echo "example plugin: check-plugin passes every rule (installed command and the example's ctest)"
else
  echo "example plugin: check-plugin needs the spectra eigen-solver plugin (skipped)"
fi
if [[ -e "$plugins/libsubstruct-slepc.so" ]]; then
  quiet example-run env SUBSTRUCT_PLUGIN_PATH="$tmp/spring" "$substruct" run "$data/scenes/beam.ini" \
    --coupling.plugin=spring-coupling --scene.domains=auto:2 --run.steps=3 \
    --run.output="$tmp/out/spring.pvd" --run.cache_dir="$tmp/cache"
  [[ -s "$tmp/out/spring.pvd" ]] || { cat "$tmp/example-run.log"; fail "the example run wrote nothing"; }
  echo "example plugin: built against $found, ran the beam in two domains"
else
  echo "example plugin: built against $found and listed; its run needs the slepc plugin (skipped)"
fi
# The example solver plugin, built against the installed package only, chosen by [solvers]
# linear: the beam's full-FEM run gives the default solver's positions.
quiet solver-configure "$cmake" -S "$source/examples/eigen-ldlt-solver" -B "$tmp/ldlt" \
  "${generator[@]}" "${launcher[@]}" -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_FIND_PACKAGE_NO_PACKAGE_REGISTRY=ON
found="$(sed -n 's/^substruct_DIR:PATH=//p' "$tmp/ldlt/CMakeCache.txt")"
[[ "$(realpath "$found")" == "$(realpath "$prefix")"/lib* ]] ||
  fail "the solver example found substruct in $found, not in $prefix"
quiet solver-build "$cmake" --build "$tmp/ldlt" -j 2
for solver in eigen-ldlt cholmod; do
  quiet "solver-run-$solver" "$substruct" run "$data/scenes/beam.ini" --plugin-path "$tmp/ldlt" \
    --solvers.linear=$solver --run.steps=20 --run.exporters=csv \
    --run.output="$tmp/out/$solver/beam.pvd" --run.cache_dir="$tmp/cache"
done
quiet solver-compare python3 "$source/tests/cli/compare_run_csv.py" \
  "$tmp/out/eigen-ldlt/beam.csv" "$tmp/out/cholmod/beam.csv" 1e-9
echo "example solver: built against $found; $(cat "$tmp/solver-compare.log") from cholmod's"
echo "install_and_use: ok"
