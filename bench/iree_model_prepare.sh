#!/bin/bash
# Assembles .carry/iree_model for bench/iree_model_gpu.sh: the static ktune (build-static), IREE's
# runtime tools and the native iree-compile driver from .venv, and libIREECompiler.so compressed
# and the stripped ktune with xz (336 MB -> about 55 MB, so the whole carry stays under the device
# tool's 64 MiB).
# GPU_TESTS="name ..." also carries those test binaries of build-static (stripped, xz), which
# bench/iree_model_gpu.sh runs first.
set -eu
cd "$(dirname "$0")/.."
C=.carry/iree_model
SITE=$(echo .venv/lib/python3*/site-packages/iree)
mkdir -p "$C"
cp build-static/ktune /tmp/ktune.stripped && strip /tmp/ktune.stripped || true
xz -9 -T2 -c /tmp/ktune.stripped > "$C/ktune.xz"
rm -f "$C"/*_test.xz
for t in ${GPU_TESTS:-}; do
  bin=$(find build-static -name "$t" -type f -perm -u+x | head -1)
  [ -n "$bin" ] || { echo "no $t in build-static" >&2; exit 1; }
  strip -o "/tmp/$t.stripped" "$bin" && xz -9 -T2 -c "/tmp/$t.stripped" > "$C/$t.xz"
done
# The tools travel as one xz tar; libIREECompiler.so stripped of its symbol tables (336 -> 246 MB,
# 44 MB compressed), since the carry and the checkout together must stay under 64 MiB.
rm -rf "$C/tools"
tar -C "$SITE/_runtime_libs" -cf /tmp/iree_tools.tar iree-run-module iree-benchmark-module iree-dump-module iree-profile
tar -C "$SITE/compiler/_mlir_libs" -rf /tmp/iree_tools.tar iree-compile iree-lld
xz -9 -T2 -c /tmp/iree_tools.tar > "$C/tools.tar.xz"
if [ ! -f "$C/libIREECompiler.so.xz" ] || [ "$SITE/compiler/_mlir_libs/libIREECompiler.so" -nt "$C/libIREECompiler.so.xz" ]; then
  strip --strip-unneeded -o /tmp/libIREECompiler.so "$SITE/compiler/_mlir_libs/libIREECompiler.so"
  xz -9e -T2 -c /tmp/libIREECompiler.so > "$C/libIREECompiler.so.xz"
fi
du -sh "$C"
