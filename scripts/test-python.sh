#!/usr/bin/env bash
# The Python package (python/, pyproject.toml): a fresh virtual environment under build-python/
# (git-ignored), `pip install .` into it, then the pytest tests of python/tests. scripts/test.sh
# runs this as a stage. The venv is made anew each run, so the install is really exercised;
# scikit-build-core's build tree, build-python/skbuild, is kept, so a second run on the same
# checkout rebuilds only what changed (a fresh clone, as in CI, builds it all: the CLI that the
# wheel carries is most of the project). KTUNE_PY_FRESH=1 removes it first.
# Needs the Debian packages of scripts/install-deps.sh (python3-venv, python3-dev) and PyPI.
set -euo pipefail
cd "$(dirname "$0")/.."
area=build-python
jobs=${KTUNE_JOBS:-$(nproc)}

[ "${KTUNE_PY_FRESH:-0}" = 1 ] && rm -rf "$area/skbuild"
rm -rf "$area/venv"
mkdir -p "$area"
python3 -m venv "$area/venv"
pip=("$area/venv/bin/python" -m pip --disable-pip-version-check)
"${pip[@]}" install --quiet pytest==9.2.0

start=$SECONDS
echo "test-python: pip install . (build dir $area/skbuild)"
# KTUNE_PY_MATCH_BUILD (set by scripts/test.sh when ccache is there): RelWithDebInfo with these
# flags, ccache and $CXX, as build/ was compiled, so that the CLI and libraries the wheel carries
# come out of the cache instead of being compiled a second time.
match=()
if [ -n "${KTUNE_PY_MATCH_BUILD:-}" ]; then
  match=(-Ccmake.build-type=RelWithDebInfo "-Ccmake.define.CMAKE_CXX_FLAGS_RELWITHDEBINFO=$KTUNE_PY_MATCH_BUILD"
         -Ccmake.define.CMAKE_CXX_COMPILER_LAUNCHER=ccache
         # build/'s modules are compiled without a precompiled header (ccache caches no compile
         # that uses one).
         -Ccmake.define.KTUNE_PCH=TESTS)
  # The same compiler path as build/'s (scripts/test.sh exports CXX): ccache keys on its name.
  [ -n "${CXX:-}" ] && match+=("-Ccmake.define.CMAKE_CXX_COMPILER=$CXX")
fi
CMAKE_BUILD_PARALLEL_LEVEL=$jobs "${pip[@]}" install --quiet . -Cbuild-dir="$area/skbuild" "${match[@]}"
echo "test-python: pip install . took $((SECONDS - start)) s"

# From outside the source tree's python/ folder, so that `import ktune` is the installed package.
"$area/venv/bin/python" -m pytest -p no:cacheprovider python/tests -v
