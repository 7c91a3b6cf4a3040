#!/usr/bin/env bash
# Installs the Debian 12 packages ktune needs to build and test. Idempotent; uses sudo when not root.
set -euo pipefail
packages=(build-essential cmake ninja-build pkg-config git python3
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
  exit 0
fi
echo "install-deps: installing ${missing[*]}"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
