#!/bin/bash
# Assembles .carry/iree_model for bench/iree_model_gpu.sh: the static ktune (build-static), IREE's
# runtime tools and the native iree-compile driver from .venv, and libIREECompiler.so compressed
# and the stripped ktune with xz (336 MB -> about 55 MB, so the whole carry stays under the device
# tool's 64 MiB).
set -eu
cd "$(dirname "$0")/.."
C=.carry/iree_model
SITE=$(echo .venv/lib/python3*/site-packages/iree)
mkdir -p "$C/tools"
cp build-static/ktune /tmp/ktune.stripped && strip /tmp/ktune.stripped || true
xz -9 -T2 -c /tmp/ktune.stripped > "$C/ktune.xz"
for t in iree-run-module iree-benchmark-module iree-dump-module; do cp "$SITE/_runtime_libs/$t" "$C/tools/"; done
cp "$SITE/compiler/_mlir_libs/iree-compile" "$SITE/compiler/_mlir_libs/iree-lld" "$C/tools/"
if [ ! -f "$C/libIREECompiler.so.xz" ] || [ "$SITE/compiler/_mlir_libs/libIREECompiler.so" -nt "$C/libIREECompiler.so.xz" ]; then
  xz -9e -T2 -c "$SITE/compiler/_mlir_libs/libIREECompiler.so" > "$C/libIREECompiler.so.xz"
fi
du -sh "$C"
