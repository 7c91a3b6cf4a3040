"""Finding and running the ktune CLI: the one tuning engine, which ktune.tune() drives."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

_BUNDLED = Path(__file__).resolve().parent / "bin" / "ktune"


class KtuneError(RuntimeError):
    """The ktune CLI failed (``exit_code`` is its exit status), or could not be found or opened.

    ``str(error)`` is the CLI's own message (its stderr); ``command`` the command line that ran;
    ``output`` its parsed ``--json`` report where it printed one (exit code 5, "no configuration
    ran correctly", still reports the session), else None.
    """

    def __init__(self, message: str, *, exit_code: int | None = None, command: Sequence[str] = (),
                 stderr: str = "", output: Any = None):
        super().__init__(message)
        self.exit_code = exit_code
        self.command = list(command)
        self.stderr = stderr
        self.output = output


def bundled_ktune() -> str | None:
    """The CLI that the wheel carries (ktune/bin/ktune), or None when this build has none."""
    return str(_BUNDLED) if os.access(_BUNDLED, os.X_OK) else None


def find_ktune(ktune_bin: str | os.PathLike[str] | None = None) -> str | None:
    """The ktune executable to run: ``ktune_bin`` if given, else $KTUNE_BIN, else the CLI bundled
    in this package, else ``ktune`` on PATH; None when there is none."""
    if ktune_bin:
        return os.fspath(ktune_bin)
    env = os.environ.get("KTUNE_BIN")
    if env:
        return env
    return bundled_ktune() or shutil.which("ktune")


def text(value: Any) -> str:
    """A size or parameter value as ktune writes it on its command line ("64", "true", "0.5")."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (str, int, float)):
        return str(value)
    if hasattr(value, "__index__"):  # numpy integers
        return str(value.__index__())
    raise TypeError(f"a size must be a str, int, float or bool, not {type(value).__name__}")


def size_args(sizes: Mapping[str, Any] | None) -> list[str]:
    args: list[str] = []
    for name, value in (sizes or {}).items():
        args += ["--size", f"{name}={text(value)}"]
    return args


def run_json(args: Iterable[str], *, db: str | os.PathLike[str] | None = None,
             ktune_bin: str | os.PathLike[str] | None = None) -> Any:
    """Runs ``ktune [--db DB] --json ARGS...`` and returns its parsed JSON output.

    Raises KtuneError with the CLI's message and exit code when it exits non-zero. An interrupt
    (KeyboardInterrupt) stops ktune with SIGTERM, which keeps what it committed, and propagates.
    """
    exe = find_ktune(ktune_bin)
    if exe is None:
        raise KtuneError("no ktune executable: this package carries none (ktune/bin/ktune), $KTUNE_BIN "
                         "is not set and there is no ktune on PATH")
    command = [exe]
    if db is not None:
        command += ["--db", os.fspath(db)]
    command += ["--json", *[os.fspath(a) for a in args]]
    try:
        proc = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
    except OSError as e:
        raise KtuneError(f"cannot run {exe}: {e.strerror or e}", command=command) from e
    try:
        out, err = proc.communicate()
    except BaseException:
        proc.terminate()  # ktune stops cleanly on SIGTERM (exit 130, results kept)
        try:
            proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()
        raise
    try:
        output = json.loads(out) if out.strip() else None
    except json.JSONDecodeError:
        output = None
        if proc.returncode == 0:
            raise KtuneError(f"{command[0]} printed no JSON: {out[:200]!r}", exit_code=0, command=command,
                             stderr=err) from None
    if proc.returncode != 0:
        message = err.strip() or f"ktune exited with status {proc.returncode}"
        raise KtuneError(message, exit_code=proc.returncode, command=command, stderr=err, output=output)
    return output
