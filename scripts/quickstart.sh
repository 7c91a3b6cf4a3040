#!/usr/bin/env bash
# Installs everything, builds ktune, and tunes the shipped CPU matmul example.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
./scripts/build.sh build
echo
echo "== ktune devices"
./build/ktune devices
echo
echo "== ktune tune examples/cpu/matmul/matmul.yaml (60 configurations of $(./build/ktune --json space examples/cpu/matmul/matmul.yaml | python3 -c 'import json,sys; print(json.load(sys.stdin)["valid"])'))"
./build/ktune --db build/quickstart.db tune examples/cpu/matmul/matmul.yaml --max-evals 60
echo
echo "== ktune best (from the database build/quickstart.db)"
./build/ktune --db build/quickstart.db best examples/cpu/matmul/matmul.yaml
