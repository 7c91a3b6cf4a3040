"""The Python package: tune() through the CLI, best()/all_best()/Runtime through the C++ API."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

import ktune
from ktune import _ktune

from conftest import EVALS, SEED, SIZES, SPEC


def as_text(config: dict) -> dict:
    """tune()'s JSON values as ktune.h's text ("8", "true")."""
    return {name: ktune._cli.text(value) for name, value in config.items()}


# ---- the package itself ----------------------------------------------------------------------

def test_extension_and_cli_are_bundled(monkeypatch):
    package = Path(ktune.__file__).resolve().parent
    assert Path(_ktune.__file__).resolve().parent == package
    bundled = ktune.bundled_ktune()
    assert bundled is not None and Path(bundled) == package / "bin" / "ktune"
    monkeypatch.delenv("KTUNE_BIN", raising=False)
    assert ktune.find_ktune() == bundled
    out = subprocess.run([bundled, "--version"], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["ktune", ktune.__version__]


def test_gemm_library_is_bundled_and_answers(monkeypatch):
    """libktune_gemm.so (ktune.torch's executor) is in the package and loads through ctypes; on a
    machine without a CUDA driver, making an executor fails with the reason, not a crash."""
    from ktune import _gemm_lib
    monkeypatch.delenv("KTUNE_GEMM_LIB", raising=False)
    package = Path(ktune.__file__).resolve().parent
    library = _gemm_lib.load()
    assert library.path == package / "lib" / "libktune_gemm.so"
    try:
        executor = _gemm_lib.Executor(library, 0)
    except RuntimeError as e:
        assert "cannot run GEMMs on CUDA device 0" in str(e) and library.last_error()
    else:  # a GPU machine: a pick that does not parse is refused with the reason
        with pytest.raises(RuntimeError, match="problem"):
            executor.add_plan({"config": {}})
    monkeypatch.setenv("KTUNE_GEMM_LIB", "/nonexistent/libktune_gemm.so")
    assert _gemm_lib.candidate_paths()[0] == Path("/nonexistent/libktune_gemm.so")


def test_ktune_bin_overrides_the_bundled_cli(monkeypatch):
    monkeypatch.setenv("KTUNE_BIN", "/somewhere/ktune")
    assert ktune.find_ktune() == "/somewhere/ktune"
    assert ktune.find_ktune("/explicit/ktune") == "/explicit/ktune"
    with pytest.raises(ktune.KtuneError, match="/somewhere/ktune") as e:
        ktune.results(db="unused.db")
    assert e.value.exit_code is None


def fake_cli(tmp_path: Path) -> Path:
    """A stand-in for ktune that prints its arguments as JSON."""
    exe = tmp_path / "fake-ktune"
    exe.write_text(f"#!{sys.executable}\nimport json, sys\nprint(json.dumps(sys.argv[1:]))\n")
    exe.chmod(exe.stat().st_mode | stat.S_IXUSR)
    return exe


def test_tune_and_results_command_lines(tmp_path):
    exe = fake_cli(tmp_path)
    argv = ktune.tune(Path("k.yaml"), db=tmp_path / "t.db", sizes={"N": 1024, "FLAG": True, "X": 0.5},
                      max_time=2, max_evals=7, strategy="bayes", strategy_params={"population": 30}, seed=3,
                      extra_args=["--no-racing"], ktune_bin=exe)
    assert argv == ["--db", str(tmp_path / "t.db"), "--json", "tune", "k.yaml",
                    "--size", "N=1024", "--size", "FLAG=true", "--size", "X=0.5",
                    "--max-time", "2.0", "--max-evals", "7", "--strategy", "bayes",
                    "--strategy-params", '{"population": 30}', "--seed", "3", "--progress", "none", "--no-racing"]
    # No --db: the CLI's own default ($KTUNE_DB, else the per-user path); --progress given by the caller.
    assert ktune.tune("k.yaml", extra_args=["--progress", "json"], ktune_bin=exe) == [
        "--json", "tune", "k.yaml", "--progress", "json"]
    assert ktune.results(db="r.db", kernel="k", status="ok", order="fastest", limit=2, session=4, ktune_bin=exe) == [
        "--db", "r.db", "--json", "results", "--kernel", "k", "--session", "4", "--status", "ok",
        "--order", "fastest", "--limit", "2"]


# ---- tuning through the CLI, lookups through the C++ API -------------------------------------

def test_tune_reports_the_session(tuned):
    _, report = tuned
    assert report["kernel"] == "cpu_reduction"
    assert report["problem"] == {"name": "cpu_reduction", "sizes": SIZES}
    assert report["evaluated"] == EVALS and report["resumed"] == 0
    assert sum(report["by_status"].values()) == EVALS
    assert report["device"]["backend"] == "cpu"
    assert report["best"]["status"] == "ok"
    assert set(report["best"]["config"]) == {"ACCUMULATORS", "UNROLL", "CHUNK", "THREADS"}
    assert report["best"]["median_s"] > 0


def test_best_is_the_tuned_configuration(tuned):
    db, report = tuned
    best = ktune.best("cpu_reduction", SIZES, db=db)
    assert best is not None
    assert best["parameters"] == as_text(report["best"]["config"])
    assert best["result_id"] == report["best"]["id"]
    assert best["sizes"] == {"N": "65536"}
    assert best["problem"] == "cpu_reduction"
    assert best["median_seconds"] == pytest.approx(report["best"]["median_s"])
    assert best["device_fingerprint"] == report["device"]["fingerprint"]
    assert best["gflops"] is not None and best["gflops"] > 0
    # Sizes compare as values; omitted sizes match anything; a device selects.
    assert ktune.best("cpu_reduction", {"N": "65536"}, db=db) == best
    assert ktune.best("cpu_reduction", db=str(db)) == best
    assert ktune.best("cpu_reduction", SIZES, db=db, device_fingerprint=best["device_fingerprint"]) == best


def test_best_misses_return_none(tuned):
    db, _ = tuned
    assert ktune.best("cpu_reduction", {"N": 1024}, db=db) is None
    assert ktune.best("no_such_problem", db=db) is None
    assert ktune.best("cpu_reduction", SIZES, db=db, device_fingerprint="cpu-not-this-one") is None


def test_all_best(tuned):
    db, _ = tuned
    assert ktune.all_best(db=db) == [ktune.best("cpu_reduction", SIZES, db=db)]


def test_results(tuned):
    db, report = tuned
    rows = ktune.results(db=db, kernel="cpu_reduction")
    assert len(rows) == EVALS
    assert {r["session"] for r in rows} == {report["session"]}
    assert report["best"]["config"] in [r["config"] for r in rows]
    fastest = ktune.results(db=db, status="ok", order="fastest", limit=1)
    assert [r["id"] for r in fastest] == [report["best"]["id"]]
    assert ktune.results(db=db, kernel="no_such_kernel") == []


def test_tune_again_resumes(tuned):
    db, report = tuned
    again = ktune.tune(SPEC, db=db, sizes=SIZES, max_evals=EVALS, seed=SEED)
    assert again["evaluated"] == 0 and again["resumed"] == EVALS
    assert again["best"]["id"] == report["best"]["id"]


# ---- errors ----------------------------------------------------------------------------------

def test_tune_missing_spec(tmp_path):
    missing = tmp_path / "missing.yaml"
    with pytest.raises(ktune.KtuneError) as e:
        ktune.tune(missing, db=tmp_path / "t.db")
    assert e.value.exit_code == 2
    assert str(missing) in str(e.value)
    assert e.value.command[-4:-2] == ["tune", str(missing)]


def test_tune_invalid_spec(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: broken\nkernel: 5\n")
    with pytest.raises(ktune.KtuneError) as e:
        ktune.tune(bad, db=tmp_path / "t.db")
    assert e.value.exit_code == 3
    assert str(e.value).startswith(f"{bad}:2:")  # file:line:column: message


def test_tune_unknown_strategy(tmp_path):
    with pytest.raises(ktune.KtuneError, match="unknown search strategy 'nonsense'") as e:
        ktune.tune(SPEC, db=tmp_path / "t.db", strategy="nonsense", max_evals=1)
    assert e.value.exit_code == 1


def test_database_that_does_not_exist(tmp_path):
    missing = tmp_path / "none.db"
    with pytest.raises(RuntimeError, match=str(missing)):
        ktune.best("cpu_reduction", db=missing)
    with pytest.raises(RuntimeError, match=str(missing)):
        ktune.all_best(db=missing)
    with pytest.raises(ktune.KtuneError, match=str(missing)) as e:
        ktune.results(db=missing)
    assert e.value.exit_code == 1
    assert not missing.exists()  # looking never creates a database


def test_file_that_is_not_a_database(tmp_path):
    junk = tmp_path / "junk.db"
    junk.write_text("not sqlite\n" * 100)
    with pytest.raises(RuntimeError):
        ktune.best("cpu_reduction", db=junk)


# ---- ktune::Runtime --------------------------------------------------------------------------

def test_runtime_lookup_offline(tuned):
    db, report = tuned
    with ktune.Runtime(db=db, online=False) as rt:
        assert rt.options["online"] is False
        assert rt.options["database_path"] == str(db)
        assert rt.options["ktune_path"] == ktune.bundled_ktune()
        found = rt.lookup(SPEC, SIZES)
        assert found is not None
        assert found["parameters"] == as_text(report["best"]["config"])
        assert found["result_id"] == report["best"]["id"]
        assert rt.lookup(str(SPEC), {"N": "65536"}) == found
        # An unknown key: None at once, and with online tuning off nothing is started.
        assert rt.lookup(SPEC, {"N": 12345}) is None
        assert rt.status(SPEC, {"N": 12345}) == {"state": "not_started", "exit_code": -1, "error": "", "seconds": 0}
        assert rt.wait_idle(0)
        assert rt.database_error == ""
    assert rt.closed
    with pytest.raises(RuntimeError, match="closed"):
        rt.lookup(SPEC, SIZES)
    assert len(ktune.results(db=db, kernel="cpu_reduction")) == EVALS  # nothing was tuned


def test_runtime_tunes_online(tmp_path):
    db = tmp_path / "online.db"  # created by the background tuning
    sizes = {"N": 32768}
    with ktune.Runtime(db=db, online=True, budget_seconds=60, tune_args=["--max-evals", "2", "--seed", "1"]) as rt:
        assert rt.lookup(SPEC, sizes) is None  # the caller runs its baseline meanwhile
        assert rt.status(SPEC, sizes)["state"] in ("queued", "tuning")
        assert rt.wait_idle(120)
        status = rt.status(SPEC, sizes)
        assert status["state"] == "done" and status["exit_code"] == 0, status
        found = rt.lookup(SPEC, sizes)
        assert found is not None and found["sizes"] == {"N": "32768"}
        assert found == ktune.best("cpu_reduction", sizes, db=db)
    assert len(ktune.results(db=db)) == 2


def test_runtime_failed_key_is_not_retried(tmp_path):
    missing = tmp_path / "missing.yaml"
    with ktune.Runtime(db=tmp_path / "t.db", online=True) as rt:
        assert rt.lookup(missing) is None
        assert rt.wait_idle(60)
        status = rt.status(missing)
        assert status["state"] == "failed" and status["exit_code"] == 2
        assert "missing.yaml" in status["error"]
        assert rt.lookup(missing) is None
        assert rt.status(missing)["state"] == "failed"


def test_runtime_without_ktune(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))
    rt = ktune.Runtime(db=tmp_path / "t.db", online=True, ktune_bin=tmp_path / "no-ktune")
    assert rt.lookup(SPEC, SIZES) is None
    assert rt.wait_idle(60)
    status = rt.status(SPEC, SIZES)
    assert status["state"] == "failed" and "no-ktune" in status["error"], status
    rt.close()


def test_raw_binding(tuned):
    """ktune._ktune is ktune.h as it is: values as text, None for nullopt."""
    db, report = tuned
    database = _ktune.TuningDatabase(str(db))
    t = database.best("cpu_reduction", {"N": "65536"})
    assert t.parameters == as_text(report["best"]["config"])
    assert t.result_id == report["best"]["id"]
    assert "cpu_reduction" in repr(t)
    assert database.best("cpu_reduction", {"N": "1"}) is None
    options = _ktune.RuntimeOptions()
    assert (options.budget_seconds, options.online, options.max_concurrent) == (30, None, 1)
    rt = _ktune.Runtime(options)
    assert rt.status(str(SPEC)).state == _ktune.TuningState.NotStarted
    rt.close()
    rt.close()  # closing twice is harmless


def test_python_m_ktune_runs_the_cli(tuned):
    db, _ = tuned
    out = subprocess.run([sys.executable, "-m", "ktune", "--db", str(db), "--json", "best"],
                         capture_output=True, text=True, check=True).stdout
    assert [b["kernel"] for b in json.loads(out)] == ["cpu_reduction"]
    env = dict(os.environ, PATH="/nonexistent")
    bad = subprocess.run([sys.executable, "-m", "ktune", "tune", "/nonexistent.yaml"], capture_output=True,
                         text=True, env=env)
    assert bad.returncode == 2 and "/nonexistent.yaml" in bad.stderr
