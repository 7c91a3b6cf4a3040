#!/bin/bash
# ncu of ktune's best kernels on odd_3000 and odd_1000 against cuBLAS's (torch.matmul), for the
# next session: where the 0.75-0.80 goes.
OUT=$1
C=.carry/s17
export PYTHONPATH=python:bench KTUNE_GEMM_LIB=$C/libAtomic.so
SECT="--section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section SchedulerStats --section LaunchStats --section Occupancy --section InstructionStats --section ComputeWorkloadAnalysis"
MET="--metrics lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,lts__t_requests_srcunit_tex_op_read.sum,dram__bytes_read.sum,dram__bytes_write.sum,sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"
cfg() { python3 -c "
import json,sys; wg,sm,sn,st,cl=sys.argv[1:]
c={'family':'generated','min_blocks_per_sm':1,'path':'wgmma','persistent':True,'pipeline_stages':int(st),'reduction':64,'reorder_workgroups':8,'split_k':1,'subgroup_m_count':int(sm),'subgroup_n_count':int(sn),'workgroup':wg}
if cl=='2': c['cluster_n']=2
print(json.dumps([c]))" "$@"; }
/tmp/ktune17 --json tune gemm --m 3000 --n 3000 --k 3000 --layout nt --dtype f16 --dry-run > /tmp/o3.json
/tmp/ktune17 --json tune gemm --m 1000 --n 1000 --k 1000 --layout nn --dtype bf16 --dry-run > /tmp/o1.json
cfg 256x160 2 1 3 2 > /tmp/c3a.json; cfg 192x192 3 1 3 2 > /tmp/c3b.json; cfg 128x64 1 1 5 2 > /tmp/c1.json
run() { timeout 100 ncu --target-processes all -k regex:$1 -c 1 $SECT $MET -o /tmp/$2 "${@:3}" > $OUT/ncu_$2.log 2>&1; echo "ncu $2 rc=$?";
  ncu -i /tmp/$2.ncu-rep --page details --csv > $OUT/ncu_$2_details.csv 2>/dev/null; ncu -i /tmp/$2.ncu-rep --page raw --csv > $OUT/ncu_$2_raw.csv 2>/dev/null; }
run ktune_gemm o3_256x160 python3 bench/generated/pair_probe.py /tmp/o3.json --shape odd_3000x3000x3000 --select file:/tmp/c3a.json --once
run ktune_gemm o3_192x192sg3 python3 bench/generated/pair_probe.py /tmp/o3.json --shape odd_3000x3000x3000 --select file:/tmp/c3b.json --once
run 'nvjet|sm90|gemm|cutlass' o3_cublas python3 bench/generated/torch_gemm_once.py odd_3000x3000x3000
run ktune_gemm o1_128x64 python3 bench/generated/pair_probe.py /tmp/o1.json --shape odd_1000x1000x1000 --select file:/tmp/c1.json --once
run 'nvjet|sm90|gemm|cutlass' o1_cublas python3 bench/generated/torch_gemm_once.py odd_1000x1000x1000
