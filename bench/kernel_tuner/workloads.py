"""The two workloads of the ktune vs Kernel Tuner comparison, as Kernel Tuner sees them.

Each mirrors its ktune spec (row_sum.yaml, scale_shift.yaml) exactly: same source file, same
parameter values, same restrictions, same launch geometry, same tolerance. check_offline.py
checks that the two agree (space sizes, every configuration's grid and block) without a GPU.
Only numpy is imported here, so this module loads anywhere.
"""

import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def ceil_div(a, b):
    return -(-a // b)


class Workload:
    name = ""
    spec = ""  # the ktune spec, relative to this directory
    source = ""  # the kernel source both tools compile
    kernel = ""  # the entry point
    tune_params = {}
    restrictions = []
    block_size_names = []
    rtol = 0.0
    atol = 0.0

    def spec_path(self):
        return os.path.join(HERE, self.spec)

    def source_path(self):
        return os.path.join(HERE, self.source)

    # Launch geometry (grid, block) of one configuration, as the ktune spec's launch section.
    def geometry(self, p):
        raise NotImplementedError

    # tune_kernel's problem_size/grid_div_* giving exactly geometry(p)'s grid.
    def kt_grid_options(self):
        raise NotImplementedError

    # (arguments, answer): host arrays for Kernel Tuner and the reference computed by numpy.
    def host_data(self, seed):
        raise NotImplementedError

    # answer for these arguments: None for each argument but the output, numpy's result for it.
    def reference(self, args):
        raise NotImplementedError

    def describe(self):
        return ""

    def verify(self, answer, result_host, atol=None):
        """Kernel Tuner verify=: every output element within atol + rtol |ref| of numpy's
        reference (the bound ktune applies; NaN, the poison of an unwritten element, fails).
        Kernel Tuner's own atol argument is ignored: the workload's tolerance is used."""
        for ref, out in zip(answer, result_host):
            if ref is None:
                continue
            if out is None or out.shape != ref.shape:
                return False
            if not np.allclose(out, ref, rtol=self.rtol, atol=self.atol, equal_nan=False):
                return False
        return True


class RowSum(Workload):
    """(a) Issue 9's workload: row sums of an R x C float32 matrix (8192 x 4096)."""

    name = "row_sum"
    spec = "row_sum.yaml"
    source = "row_sum.cu"
    kernel = "row_sum"
    R, C = 8192, 4096
    tune_params = {
        "BLOCK_X": [32, 64, 128, 256, 512],
        "ROWS": [1, 2, 4, 8, 16],
        "VEC": [1, 2, 4],
        "UNROLL": [1, 2, 4],
    }
    restrictions = [
        "BLOCK_X * ROWS >= 256 and BLOCK_X * ROWS <= 512",
        "VEC * UNROLL <= 8",
        f"BLOCK_X * VEC * UNROLL <= {C}",
    ]
    block_size_names = ["BLOCK_X", "ROWS"]
    rtol, atol = 1e-5, 0.0

    def describe(self):
        return f"row sums of a {self.R}x{self.C} float32 matrix ({self.R * self.C * 4 >> 20} MiB in, {self.R} floats out)"

    def geometry(self, p):
        return (ceil_div(self.R, p["ROWS"]), 1, 1), (p["BLOCK_X"], p["ROWS"], 1)

    def kt_grid_options(self):
        # grid.x = ceil(R / ROWS); y and z: ceil(1 / 1) (an empty divisor list multiplies to 1)
        return dict(problem_size=(self.R, 1, 1), grid_div_x=["ROWS"], grid_div_y=[], grid_div_z=[])

    def host_data(self, seed):
        rng = np.random.default_rng(seed)
        x = rng.random((self.R, self.C), dtype=np.float32)  # [0, 1), as the spec's init
        y = np.full(self.R, np.nan, dtype=np.float32)  # poisoned: an unwritten row fails verify
        args = [x.reshape(-1), y, np.int32(self.R), np.int32(self.C)]
        return args, self.reference(args)

    def reference(self, args):
        x = args[0].reshape(self.R, self.C)
        return [None, x.sum(axis=1, dtype=np.float64).astype(np.float32), None, None]


class ScaleShift(Workload):
    """(b) Memory-bound: y = a x + b over N = 32M float32 (128 MiB in, 128 MiB out)."""

    name = "scale_shift"
    spec = "scale_shift.yaml"
    source = "scale_shift.cu"
    kernel = "scale_shift"
    N = 1 << 25
    A, B = 1.5, -0.25
    tune_params = {
        "BLOCK": [128, 256, 512, 1024],
        "VEC": [1, 2, 4],
        "ITEMS": [1, 2, 4, 8],
        "STREAM": [0, 1],
    }
    restrictions = ["VEC * ITEMS <= 8"]
    block_size_names = ["BLOCK"]
    rtol, atol = 1e-6, 1e-6

    def describe(self):
        return f"y = a x + b over {self.N} float32 ({self.N * 4 >> 20} MiB in, {self.N * 4 >> 20} MiB out)"

    def geometry(self, p):
        return (ceil_div(self.N, p["BLOCK"] * p["VEC"] * p["ITEMS"]), 1, 1), (p["BLOCK"], 1, 1)

    def kt_grid_options(self):
        # grid.x = ceil(N / (BLOCK * VEC * ITEMS))
        return dict(problem_size=(self.N, 1, 1), grid_div_x=["BLOCK", "VEC", "ITEMS"], grid_div_y=[], grid_div_z=[])

    def host_data(self, seed):
        rng = np.random.default_rng(seed)
        x = rng.random(self.N, dtype=np.float32) * np.float32(2) - np.float32(1)  # [-1, 1)
        y = np.full(self.N, np.nan, dtype=np.float32)  # poisoned: an unwritten element fails verify
        args = [x, y, np.float32(self.A), np.float32(self.B), np.int32(self.N)]
        return args, self.reference(args)

    def reference(self, args):
        ref = (np.float64(self.A) * args[0] + np.float64(self.B)).astype(np.float32)
        return [None, ref, None, None, None]


WORKLOADS = {w.name: w for w in (RowSum(), ScaleShift())}
