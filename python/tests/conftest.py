"""Fixtures: one short CPU tuning of examples/cpu/reduction, shared by the tests that read it.

These tests run against the installed package (`pip install .`; scripts/test-python.sh), not the
source tree: python/tests has no __init__.py, so pytest puts only this folder on sys.path.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import ktune

REPO = Path(__file__).resolve().parents[2]
SPEC = REPO / "examples" / "cpu" / "reduction" / "reduction.yaml"
# A small problem (the spec's default is 4 Mi elements) and three seeded random configurations:
# the same three every run, about 5 s on two cores.
SIZES = {"N": 65536}
EVALS = 3
SEED = 1


@pytest.fixture(scope="session", autouse=True)
def _isolated(tmp_path_factory):
    """No test reads or writes the user's database or compile cache, or runs another ktune."""
    saved = {k: os.environ.get(k) for k in ("KTUNE_DB", "KTUNE_CACHE_DIR", "KTUNE_BIN", "KTUNE_ONLINE")}
    os.environ["KTUNE_DB"] = str(tmp_path_factory.mktemp("default") / "never-used.db")
    os.environ["KTUNE_CACHE_DIR"] = str(tmp_path_factory.mktemp("cache"))
    os.environ.pop("KTUNE_BIN", None)
    os.environ.pop("KTUNE_ONLINE", None)
    yield
    for k, v in saved.items():
        if v is None:
            os.environ.pop(k, None)
        else:
            os.environ[k] = v


@pytest.fixture(scope="session")
def tuned(_isolated, tmp_path_factory):
    """(database path, the report of ktune.tune) after tuning SPEC at SIZES."""
    db = tmp_path_factory.mktemp("tuned") / "ktune.db"
    report = ktune.tune(SPEC, db=db, sizes=SIZES, max_evals=EVALS, seed=SEED)
    return db, report
