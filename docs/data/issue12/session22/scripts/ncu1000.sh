#!/bin/bash
# Session 22: L2 sectors and stalls of odd_1000's best kernel after the per-operand L2 promotion (compare session 21 run 4).
bash .carry/s22/ncu_cmp.sh $1 odd_1000x1000x1000 1000 1000 1000 nn bf16 '[{"family": "generated", "min_blocks_per_sm": 1, "path": "wgmma", "persistent": true, "pipeline_stages": 5, "reduction": 64, "reorder_workgroups": 8, "split_k": 1, "subgroup_m_count": 2, "subgroup_n_count": 1, "workgroup": "128x64", "cluster_n": 2}]'
