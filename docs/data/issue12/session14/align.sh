#!/bin/bash
# Does a row pitch that is not a multiple of 128 bytes slow the TMA (wgmma) kernels? Same binary, near shapes.
OUT=$1
python3 -c "import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], 'wb'))" .carry/s14/ktune.xz /tmp/ktune14; chmod +x /tmp/ktune14
for s in "3000 3000 3000 nt f16" "3008 3008 3008 nt f16" "3072 3072 3072 nt f16" "3000 3008 3008 nt f16" "3008 3008 3000 nt f16" \
         "1000 1000 1000 nn bf16" "1008 1008 1008 nn bf16" "1024 1024 1024 nn bf16" "4096 4096 4000 nt f16" "4096 4096 4096 nt f16"; do
  set -- $s
  d=$(mktemp -d)
  KTUNE_CACHE_DIR=$d/c timeout 60 /tmp/ktune14 --db $d/k.db --json tune gemm --m $1 --n $2 --k $3 --layout $4 --dtype $5 --families generated,cublaslt --progress none > $OUT/align_$1x$2x$3_$4.json 2>$OUT/align_$1x$2x$3_$4.err
  python3 - $OUT/align_$1x$2x$3_$4.json "$s" <<'PY'
import json, sys
r = json.load(open(sys.argv[1])); g = (r.get("family_best") or {}).get("generated")
b = r["baseline"]["median_s"]
print(sys.argv[2], "default %.1f us" % (b * 1e6), "gen %.1f us" % (g["stats"]["median_s"] * 1e6) if g else "-", "ratio %.2f" % (b / g["stats"]["median_s"]) if g else "", g["config"].get("workgroup") if g else "")
PY
done
