#!/bin/bash
OUT=$1; C=.carry/s21
G='{"family": "generated", "min_blocks_per_sm": 1, "path": "wgmma", "reorder_workgroups": 8, "split_k": 1'
bash $C/ncu_cmp.sh $OUT tf32_4096x4096x4096 4096 4096 4096 nn tf32 "[$G, \"persistent\": true, \"pipeline_stages\": 4, \"reduction\": 32, \"subgroup_m_count\": 2, \"subgroup_n_count\": 1, \"workgroup\": \"128x256\", \"swap_ab\": true}, $G, \"persistent\": true, \"pipeline_stages\": 3, \"reduction\": 32, \"subgroup_m_count\": 2, \"subgroup_n_count\": 1, \"workgroup\": \"256x128\", \"cluster_n\": 2}]"
bash $C/ncu_cmp.sh $OUT odd_1000x1000x1000 1000 1000 1000 nn bf16 "[$G, \"persistent\": true, \"pipeline_stages\": 5, \"reduction\": 64, \"subgroup_m_count\": 2, \"subgroup_n_count\": 1, \"workgroup\": \"128x64\", \"cluster_n\": 2}]"
bash $C/ncu_cmp.sh $OUT odd_3000x3000x3000 3000 3000 3000 nt f16 "[$G, \"persistent\": true, \"pipeline_stages\": 4, \"reduction\": 64, \"subgroup_m_count\": 3, \"subgroup_n_count\": 1, \"workgroup\": \"192x192\", \"cluster_m\": 2}]"
