#!/usr/bin/env bash
# Installs the Debian 12 packages ktune needs to build and test, then the Python tools into a
# project-local virtual environment, .venv (git-ignored), pinned: IREE's compiler and runtime
# (ktune model ... drives iree-compile, iree-benchmark-module, iree-run-module). Idempotent;
# uses sudo when not root. KTUNE_SKIP_VENV=1 skips the venv.
set -euo pipefail
cd "$(dirname "$0")/.."
python_tools=(iree-base-compiler==3.13.0 iree-base-runtime==3.13.0)

install_venv() {
  [ "${KTUNE_SKIP_VENV:-0}" = 1 ] && return 0
  local stamp=.venv/.ktune-pins want
  want=$(printf '%s\n' "${python_tools[@]}")
  if [ -x .venv/bin/python ] && [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then
    echo "install-deps: .venv has ${python_tools[*]}"
    return 0
  fi
  echo "install-deps: installing ${python_tools[*]} into .venv"
  python3 -m venv .venv
  .venv/bin/pip install --quiet --disable-pip-version-check "${python_tools[@]}"
  printf '%s' "$want" >"$stamp"
}

packages=(build-essential cmake ninja-build pkg-config git python3 python3-venv
  libsqlite3-dev libyaml-cpp-dev nlohmann-json3-dev libcli11-dev libfmt-dev libgtest-dev
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
