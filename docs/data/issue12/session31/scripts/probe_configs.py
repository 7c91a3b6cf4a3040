# Session 31, run 1: configurations timed side by side by bench/generated/pair_probe.py.
import json, sys
out = sys.argv[1] if len(sys.argv) > 1 else '.carry/s31/probe'
def cfg(wg, sgm, stages, split=1, persistent=False, cn=1, cm=1, reduce=False, swap=False, dt='BF16', sgn=1, mb=1):
    tm, tn = map(int, wg.split('x'))
    c = {'family':'generated','path':'wgmma','workgroup':wg,'reduction':64,'subgroup_m_count':sgm,'subgroup_n_count':sgn,
         'mma_kind':f'WGMMA_F32_64x{tn//sgn}x16_{dt}','pipeline_stages':stages,'split_k':split,'reorder_workgroups':8,
         'persistent':persistent,'min_blocks_per_sm':mb}
    if cn>1: c['cluster_n']=cn
    if cm>1: c['cluster_m']=cm
    if reduce: c['split_reduce']=True
    if swap: c['swap_ab']=True
    return c
# rand4_01_prefill_322x5120x8192 bf16 nt: cuBLASLt's default is 128x112 in clusters of 4 along
# its M (our N): in our terms the swapped 128x112 with cluster_m 4 (CTAs along the kernel's M
# share the kernel's B, the user's A).
r01 = [cfg('128x128', 2, 5, persistent=True)]
for s in (4, 5):
    for cm in (1, 2, 4):
        for p in (False, True):
            r01.append(cfg('128x112', 2, s, persistent=p, swap=True, cm=cm))
r01 += [cfg('128x112', 2, 5, persistent=True, swap=True, cn=2), cfg('128x112', 2, 5, persistent=True, swap=True, cm=2, cn=2)]
# l7b_o_decode_m16: 16x4096x4096 bf16 nt: 64 CTAs of 64x16 (swapped) leave half the SMs idle.
o16 = [cfg('64x16', 1, 16, swap=True)]
for split in (2, 4):
    for s in (8, 12, 16):
        o16.append(cfg('64x16', 1, s, split=split, swap=True))
    o16.append(cfg('64x16', 1, 16, split=split, swap=True, reduce=True))
o16.append(cfg('64x16', 1, 12, split=2, swap=True, persistent=True))
# bmm_qk_b32_512x512x64 f16 nt: one K tile; two stages leave room for more CTAs per SM.
qk = [cfg('128x256', 2, 3, persistent=True, dt='F16')]
for mb in (1, 2):
    for p in (False, True):
        qk.append(cfg('128x128', 2, 2, persistent=p, dt='F16', mb=mb))
qk += [cfg('128x256', 2, 2, persistent=True, dt='F16'), cfg('64x128', 1, 2, dt='F16', mb=3), cfg('64x128', 1, 2, persistent=True, dt='F16', mb=3),
       cfg('128x128', 2, 3, persistent=True, dt='F16', mb=2)]
# shortk_2048x2048x96 f16 nn (N-contiguous B): two K tiles.
sk = [cfg('128x256', 1, 3, persistent=True, dt='F16', sgn=2)]
for mb in (1, 2):
    for p in (False, True):
        sk.append(cfg('128x128', 2, 2, persistent=p, dt='F16', mb=mb))
sk += [cfg('128x256', 1, 2, persistent=True, dt='F16', sgn=2), cfg('64x128', 1, 2, dt='F16', mb=3), cfg('64x128', 1, 2, persistent=True, dt='F16', mb=3)]
for name, L in (('rand01', r01), ('o16', o16), ('qk', qk), ('sk96', sk)):
    json.dump(L, open(f'{out}/{name}.json', 'w'), indent=0)
    print(name, len(L))
