#!/usr/bin/env python3
"""Writes plain f16 matmul models (A MxK, B KxN) for `ktune model tune`: shapes no example has,
to check a candidate family beyond the shapes it was built on. The result is f32, or f16
accumulated in f16 with the suffix ":f16".

  iree_matmul_models.py OUTDIR MxNxK[:f16] ...   ->  OUTDIR/mm_MxNxK.mlir, OUTDIR/mm_MxNxK_f16.mlir
"""
import pathlib
import re
import sys

TEMPLATE = """func.func @matmul(%a: tensor<{m}x{k}xf16>, %b: tensor<{k}x{n}xf16>) -> tensor<{m}x{n}x{t}> {{
  %zero = arith.constant 0.0 : {t}
  %empty = tensor.empty() : tensor<{m}x{n}x{t}>
  %acc = linalg.fill ins(%zero : {t}) outs(%empty : tensor<{m}x{n}x{t}>) -> tensor<{m}x{n}x{t}>
  %d = linalg.matmul ins(%a, %b : tensor<{m}x{k}xf16>, tensor<{k}x{n}xf16>) outs(%acc : tensor<{m}x{n}x{t}>) -> tensor<{m}x{n}x{t}>
  return %d : tensor<{m}x{n}x{t}>
}}
"""


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    out = pathlib.Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    for arg in sys.argv[2:]:
        if not re.fullmatch(r"\d+x\d+x\d+(:f16)?", arg):
            sys.exit(f"iree_matmul_models.py: {arg!r}: expected MxNxK or MxNxK:f16, e.g. 4096x4096x4096")
        shape, _, result = arg.partition(":")
        m, n, k = shape.split("x")
        name = f"mm_{shape}" + (f"_{result}" if result else "")
        (out / f"{name}.mlir").write_text(TEMPLATE.format(m=m, n=n, k=k, t=result or "f32"))


if __name__ == "__main__":
    main()
