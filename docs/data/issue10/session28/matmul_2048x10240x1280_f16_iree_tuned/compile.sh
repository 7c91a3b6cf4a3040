#!/bin/sh
# The model compiled with ktune's tuned dispatch configurations (written by ktune model tune).
# Usage: compile.sh MODEL.mlir OUT.vmfb   (IREE_COMPILE=path/to/iree-compile to choose the compiler)
set -e
here="$(cd "$(dirname "$0")" && pwd)"
exec "${IREE_COMPILE:-iree-compile}" "$1" -o "$2" \
  '--iree-hal-target-device=cuda' \
  '--iree-cuda-target=sm_80' \
  "--iree-hal-substitute-executable-configuration=matmul_dispatch_0=$here/matmul_dispatch_0.mlir" \
  "--iree-codegen-transform-dialect-library=$here/strategies.mlir"
