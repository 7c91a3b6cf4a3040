"""python -m ktune ARGS...: runs the ktune CLI that ktune.tune() runs (see ktune.find_ktune)."""

import os
import sys

from ._cli import find_ktune


def main() -> None:
    exe = find_ktune()
    if exe is None:
        sys.exit("ktune: no ktune executable (this package carries none, $KTUNE_BIN is not set, none on PATH)")
    try:
        os.execv(exe, [exe, *sys.argv[1:]])
    except OSError as e:
        sys.exit(f"ktune: cannot run {exe}: {e.strerror or e}")


if __name__ == "__main__":
    main()
