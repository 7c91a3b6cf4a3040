#!/usr/bin/env bash
# Configures and builds ktune into build/ (or $1), producing build/ktune. Extra args go to cmake.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build}
shift || true
jobs=${KTUNE_JOBS:-$(nproc)}
cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=${KTUNE_BUILD_TYPE:-RelWithDebInfo} "$@" >/dev/null
ninja -C "$dir" -j "$jobs"
