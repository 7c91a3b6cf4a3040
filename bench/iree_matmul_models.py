#!/usr/bin/env python3
"""Writes plain f16 matmul models (A MxK, B KxN, f32 result) for `ktune model tune`:
shapes no example has, to check a candidate family beyond the shapes it was built on.

  iree_matmul_models.py OUTDIR MxNxK [MxNxK ...]   ->  OUTDIR/mm_MxNxK.mlir
"""
import pathlib
import re
import sys

TEMPLATE = """func.func @matmul(%a: tensor<{m}x{k}xf16>, %b: tensor<{k}x{n}xf16>) -> tensor<{m}x{n}xf32> {{
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<{m}x{n}xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32>
  %d = linalg.matmul ins(%a, %b : tensor<{m}x{k}xf16>, tensor<{k}x{n}xf16>) outs(%acc : tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32>
  return %d : tensor<{m}x{n}xf32>
}}
"""


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    out = pathlib.Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    for shape in sys.argv[2:]:
        if not re.fullmatch(r"\d+x\d+x\d+", shape):
            sys.exit(f"iree_matmul_models.py: {shape!r}: expected MxNxK, e.g. 4096x4096x4096")
        m, n, k = shape.split("x")
        (out / f"mm_{shape}.mlir").write_text(TEMPLATE.format(m=m, n=n, k=k))


if __name__ == "__main__":
    main()
