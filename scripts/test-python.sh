#!/usr/bin/env bash
# The Python package (python/, pyproject.toml): a fresh virtual environment under build-python/
# (git-ignored), `pip install .` into it, then the pytest tests of python/tests. scripts/test.sh
# runs this as a stage. The venv is made anew each run, so the install is really exercised;
# scikit-build-core's build tree, build-python/skbuild, is kept, so a second run on the same
# checkout rebuilds only what changed (a fresh clone builds it all: the CLI that the wheel
# carries is most of the project; scripts/test.sh has it build in build/ instead, see
# KTUNE_PY_BUILD_DIR below). KTUNE_PY_FRESH=1 removes it first.
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
# KTUNE_PY_BUILD_DIR: an existing CMake build tree of this checkout to build the package in, with
# that tree's compiler, build type and flags, so that what it has built is not compiled again
# (scripts/test.sh passes build/, which its first stage built: only the extension module is new).
# pyproject.toml turns that tree's tests off (KTUNE_BUILD_TESTS=OFF); scripts/test.sh turns them
# on again when it next builds there.
build_dir="$area/skbuild"
match=()
if [ -n "${KTUNE_PY_BUILD_DIR:-}" ]; then
  cache="$KTUNE_PY_BUILD_DIR/CMakeCache.txt"
  if [ ! -f "$cache" ]; then
    echo "test-python: KTUNE_PY_BUILD_DIR=$KTUNE_PY_BUILD_DIR has no CMakeCache.txt (not a configured build tree)" >&2
    exit 2
  fi
  build_dir="$KTUNE_PY_BUILD_DIR"
  build_type="$(sed -n 's/^CMAKE_BUILD_TYPE:[A-Z]*=//p' "$cache")"
  match=("-Ccmake.build-type=${build_type:-RelWithDebInfo}")
fi
echo "test-python: pip install . (build dir $build_dir)"
CMAKE_BUILD_PARALLEL_LEVEL=$jobs "${pip[@]}" install --quiet . "-Cbuild-dir=$build_dir" "${match[@]}"
echo "test-python: pip install . took $((SECONDS - start)) s"

# From outside the source tree's python/ folder, so that `import ktune` is the installed package.
"$area/venv/bin/python" -m pytest -p no:cacheprovider python/tests -v
