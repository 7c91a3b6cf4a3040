#!/bin/sh
# Stands in for NVIDIA's compute-sanitizer in the CPU end-to-end test: takes its options, runs
# the program after them, then writes a log with a fixed "ERROR SUMMARY" like the real one.
log=""
while [ $# -gt 0 ]; do
  case "$1" in
    --help) echo "  --padding <number>  (a fake: the real one lists its options)"; exit 0 ;;
    --tool|--print-limit|--leak-check|--report-api-errors|--padding) shift 2 ;;
    --log-file) log="$2"; shift 2 ;;
    *) break ;;
  esac
done
"$@"
status=$?
printf '========= Invalid __global__ write of size 4 bytes\n=========     at fake_kernel+0x10\n========= ERROR SUMMARY: 2 errors\n' > "$log"
exit $status
