#!/usr/bin/env bash
# Downloads Kernel Tuner 1.5.0 and the dependencies the GPU machines lack into .whl/ (git-ignored),
# for bench/kernel_tuner/compare.py, which installs them there with
#   python3 -m pip install --no-index --no-deps --target /tmp/site .whl/*.whl
# The GPU machines have Python 3.12 with numpy, scipy, pandas, scikit-learn, packaging, attrs,
# typing-extensions and cupy-cuda13x. Of kernel_tuner 1.5.0's Requires-Dist (numpy>=2, scipy>=1.14.1,
# pandas>=2, scikit-learn>=1.0.2, packaging, jsonschema, xmltodict, python-constraint2>=2.5.0, pymoo>=0.6.1.6)
# they lack jsonschema (+ referencing, jsonschema-specifications, rpds-py), xmltodict and
# python-constraint2. pymoo is left out: only the nsga2/nsga3 strategies and Pareto fronts import
# it, never brute_force. About 9.5 MB in all. Idempotent: wheels already there are kept.
set -euo pipefail
cd "$(dirname "$0")/.."
dest=.whl
mkdir -p "$dest"

# Pure-Python wheels.
pure=(
  kernel_tuner==1.5.0
  jsonschema==4.26.0
  jsonschema-specifications==2025.9.1
  referencing==0.37.0
  xmltodict==1.0.4
)
# Compiled: CPython 3.12, x86-64 manylinux.
binary=(
  python-constraint2==2.9.0
  rpds-py==2026.9.1
)

have() {  # have NAME==VERSION: a wheel of that name and version is in $dest
  local name=${1%%==*} version=${1##*==}
  compgen -G "$dest/${name//-/_}-${version}-*.whl" >/dev/null
}

for req in "${pure[@]}"; do
  have "$req" || python3 -m pip download -q --no-deps --only-binary=:all: -d "$dest" "$req"
done
for req in "${binary[@]}"; do
  have "$req" || python3 -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \
    --platform manylinux_2_28_x86_64 --platform manylinux_2_17_x86_64 --platform manylinux2014_x86_64 -d "$dest" "$req"
done
ls -l "$dest"
du -sh "$dest"
