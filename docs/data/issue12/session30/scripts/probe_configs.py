import json
def cfg(wg, sgm, stages, split=1, persistent=False, cn=1, cm=1, reduce=False, swap=False, dt='BF16', sgn=1):
    tm, tn = map(int, wg.split('x'))
    c = {'family':'generated','path':'wgmma','workgroup':wg,'reduction':64,'subgroup_m_count':sgm,'subgroup_n_count':sgn,
         'mma_kind':f'WGMMA_F32_64x{tn//sgn}x16_{dt}','pipeline_stages':stages,'split_k':split,'reorder_workgroups':8,
         'persistent':persistent,'min_blocks_per_sm':1}
    if cn>1: c['cluster_n']=cn
    if cm>1: c['cluster_m']=cm
    if reduce: c['split_reduce']=True
    if swap: c['swap_ab']=True
    return c
down=[]
# l70b_down_decode_m128: 128x8192x28672 bf16 nt
for s in (4,6,8):
    for cn in (1,2,4):
        down.append(cfg('128x64',2,s,cn=cn))
for s in (6,8):
    for cn in (2,4):
        down.append(cfg('128x64',2,s,cn=cn,persistent=True))
for s in (4,5,6):
    for cn in (1,2):
        down.append(cfg('128x128',2,s,split=2,reduce=True,cn=cn,persistent=True))
down.append(cfg('128x128',2,6,split=2,reduce=True,cn=2))
for s in (5,6,8):
    for cm in (1,2):
        down.append(cfg('64x128',1,s,cm=cm))
for s in (4,6):
    down.append(cfg('128x64',2,s,split=2,reduce=True,cn=2,persistent=True))
down.append(cfg('128x96',2,6,cn=2))   # 86 tiles
up64=[]
# l7b_up_decode_m64: 64x11008x4096 bf16 nt
for s in (5,6,8):
    up64.append(cfg('64x96',1,s))
    up64.append(cfg('64x96',1,s,persistent=True))
for s in (5,6,8):
    up64.append(cfg('64x88',1,s))
for s in (4,6,8):
    up64.append(cfg('64x176',1,s))
up64.append(cfg('64x96',1,6,split=2,reduce=True,persistent=True))
json.dump(down,open('.carry/s30/probe/down128.json','w'),indent=0)
json.dump(up64,open('.carry/s30/probe/up64.json','w'),indent=0)
print(len(down),len(up64))
# run 7: rand4_01_prefill_322x5120x8192 (322x5120x8192 bf16 nt); the run kept 11 of these
# (scripts/rand01_configs.json: the unswapped two, 128x112 two warpgroups persistent s4-6 and
# non-persistent s5, one warpgroup s5, 128x176 and 192x112 persistent s4-5)
L=[cfg('128x128',2,5,persistent=True), cfg('128x144',2,5,persistent=True)]
for wg,sgm in (('128x112',2),('128x112',1),('128x176',2),('256x112',4),('192x112',3),('128x96',2),('128x80',2)):
    for s in (4,5,6):
        for p in (False,True):
            L.append(cfg(wg,sgm,s,persistent=p,swap=True))
json.dump(L, open('.carry/s30/probe/rand01_all.json', 'w'))
