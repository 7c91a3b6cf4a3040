"""libktune_gemm (include/ktune/ktune_gemm.h) through ctypes: runs ktune's GEMM picks in this
process, on the caller's CUDA buffers and stream. ctypes rather than the extension module because
the library has a C ABI and no Python ABI: one build serves every Python version, including the
PyTorch environments of GPU machines that did not build ktune.

Where the library is looked up: ``$KTUNE_GEMM_LIB``; the one this package carries
(ktune/lib/libktune_gemm.so); next to the ktune CLI in use (a build tree keeps it in
src/ktune/families/, an install in ../lib/).
"""

from __future__ import annotations

import ctypes
import json
import os
from pathlib import Path
from typing import Any

from ._cli import find_ktune

_HERE = Path(__file__).resolve().parent
LIBRARY_NAME = "libktune_gemm.so"
ABI_VERSION = 1


def candidate_paths(ktune_bin: str | None = None) -> list[Path]:
    """Where load() looks, in order."""
    paths: list[Path] = []
    env = os.environ.get("KTUNE_GEMM_LIB")
    if env:
        paths.append(Path(env))
    paths.append(_HERE / "lib" / LIBRARY_NAME)
    cli = find_ktune(ktune_bin)
    if cli:
        where = Path(cli).resolve().parent
        paths += [where / LIBRARY_NAME, where / "src" / "ktune" / "families" / LIBRARY_NAME, where.parent / "lib" / LIBRARY_NAME]
    return paths


class GemmLibrary:
    """The loaded library with its entry points typed."""

    def __init__(self, path: Path) -> None:
        self.path = path
        lib = ctypes.CDLL(os.fspath(path))
        lib.ktune_gemm_abi_version.restype = ctypes.c_int
        version = lib.ktune_gemm_abi_version()
        if version != ABI_VERSION:
            raise RuntimeError(f"{path} has ABI version {version}; this package needs {ABI_VERSION}")
        vp, c_int, c_char_p, c_size_t = ctypes.c_void_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_size_t
        lib.ktune_gemm_create.argtypes = [c_int, c_char_p, c_size_t]
        lib.ktune_gemm_create.restype = vp
        lib.ktune_gemm_add_plan.argtypes = [vp, c_char_p, c_char_p, c_size_t]
        lib.ktune_gemm_add_plan.restype = c_int
        lib.ktune_gemm_run.argtypes = [vp, c_int, vp, vp, vp, vp, vp, vp]
        lib.ktune_gemm_run.restype = c_int
        lib.ktune_gemm_last_error.argtypes = []
        lib.ktune_gemm_last_error.restype = c_char_p
        lib.ktune_gemm_describe.argtypes = [vp, c_int, c_char_p, c_size_t]
        lib.ktune_gemm_describe.restype = c_int
        self.lib = lib
        # The per-call entry point, bound once: ktune.torch calls it directly.
        self.run = lib.ktune_gemm_run

    def last_error(self) -> str:
        return (self.lib.ktune_gemm_last_error() or b"").decode(errors="replace")


def load(ktune_bin: str | None = None) -> GemmLibrary:
    """The first library found (see the module's doc); RuntimeError listing what was tried."""
    tried = []
    for path in candidate_paths(ktune_bin):
        if not path.is_file():
            tried.append(f"{path}: no such file")
            continue
        try:
            return GemmLibrary(path)
        except OSError as e:
            tried.append(f"{path}: {e}")
    raise RuntimeError(f"{LIBRARY_NAME} not found (set KTUNE_GEMM_LIB to its path); tried:\n  " + "\n  ".join(tried))


class Executor:
    """One ktune_gemm_executor (a CUDA device). Never destroyed: it lives as long as the process,
    as PyTorch's own handles do, because CUDA may already be torn down when Python exits."""

    def __init__(self, library: GemmLibrary, ordinal: int) -> None:
        self.library = library
        error = ctypes.create_string_buffer(4096)
        handle = library.lib.ktune_gemm_create(ordinal, error, len(error))
        if not handle:
            raise RuntimeError(f"cannot run GEMMs on CUDA device {ordinal}: {error.value.decode(errors='replace')}")
        self.handle = ctypes.c_void_p(handle)
        self.ordinal = ordinal

    def add_plan(self, pick: dict[str, Any]) -> int:
        """The plan id of one pick of `ktune export --gemm-picks`; RuntimeError saying why not."""
        error = ctypes.create_string_buffer(4096)
        plan = self.library.lib.ktune_gemm_add_plan(self.handle, json.dumps(pick).encode(), error, len(error))
        if plan < 0:
            raise RuntimeError(error.value.decode(errors="replace"))
        return plan

    def describe(self, plan: int) -> dict[str, Any]:
        out = ctypes.create_string_buffer(1 << 16)
        n = self.library.lib.ktune_gemm_describe(self.handle, plan, out, len(out))
        if n < 0:
            raise RuntimeError(self.library.last_error())
        return json.loads(out.value.decode())
