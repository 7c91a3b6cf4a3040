#!/usr/bin/env bash
# Installs the Debian 12 packages ktune needs to build and test, then the Python tools into a
# project-local virtual environment, .venv (git-ignored), pinned: IREE's compiler and runtime
# (ktune model ... drives iree-compile, iree-benchmark-module, iree-run-module). Idempotent;
# uses sudo when not root. KTUNE_SKIP_VENV=1 skips the venv.
#   --bench  also installs the benchmark tools into .venv: Kernel Tuner 1.5.0 and the libraries
#            that shape its strategies' behaviour, pinned (bench/strategies/kt_simulate.py; about
#            20-45 s and 550 MB, CPU only, so CI leaves it out).
set -euo pipefail
cd "$(dirname "$0")/.."
python_tools=(iree-base-compiler==3.13.0 iree-base-runtime==3.13.0)
bench_tools=(kernel_tuner==1.5.0 numpy==2.4.6 scipy==1.17.1 python-constraint2==2.9.0)

for arg in "$@"; do
  case "$arg" in
    --bench) python_tools+=("${bench_tools[@]}") ;;
    *) echo "usage: scripts/install-deps.sh [--bench]" >&2; exit 2 ;;
  esac
done

install_venv() {
  [ "${KTUNE_SKIP_VENV:-0}" = 1 ] && return 0
  local stamp=.venv/.ktune-pins pin missing_pins=0
  # Installed pins accumulate in the stamp, so a run without --bench keeps the bench tools.
  for pin in "${python_tools[@]}"; do
    grep -Fxq -- "$pin" "$stamp" 2>/dev/null || missing_pins=1
  done
  if [ -x .venv/bin/python ] && [ "$missing_pins" = 0 ]; then
    echo "install-deps: .venv has ${python_tools[*]}"
    return 0
  fi
  echo "install-deps: installing ${python_tools[*]} into .venv"
  python3 -m venv .venv
  .venv/bin/pip install --quiet --disable-pip-version-check "${python_tools[@]}"
  { cat "$stamp" 2>/dev/null && echo; printf '%s\n' "${python_tools[@]}"; } | grep -v '^$' | sort -u >"$stamp.new"
  mv "$stamp.new" "$stamp"
}

# python3-dev, python3-venv: the Python package's build (pip install .; scripts/test-python.sh).
# ccache: for developers' repeated builds (e.g. -DCMAKE_CXX_COMPILER_LAUNCHER=ccache for the static
# build carried to the GPU machines); scripts/test.sh no longer uses it (a fresh clone's cache is empty).
packages=(build-essential cmake ninja-build pkg-config git python3 python3-venv python3-dev
  libsqlite3-dev libyaml-cpp-dev nlohmann-json3-dev libcli11-dev libfmt-dev libgtest-dev ccache
  clang-14 libclang-rt-14-dev llvm-14
  clang-19 lld-19 llvm-19 clang-22 lld-22 llvm-22
  chromium)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  install_venv
  exit 0
fi
echo "install-deps: installing ${missing[*]}"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
install_venv
